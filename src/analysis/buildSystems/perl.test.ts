import { describe, expect, it } from 'vitest';
import { SourceTree } from '../SourceTree.ts';
import { perl } from './perl.ts';

describe('perl detector', () => {
  it('finds Makefile.PL or Build.PL and whether the distribution has XS code', () => {
    const xs = SourceTree.fromFiles({
      'Makefile.PL': 'use ExtUtils::MakeMaker;',
      'IP.xs': '#include "EXTERN.h"',
    });
    const found = perl.detect(xs, '');
    expect(found).toMatchObject({ evidence: ['Makefile.PL'], details: { script: 'Makefile.PL', xs: true } });
    const plan = perl.defaultPlan({
      type: 'perl',
      dir: '.',
      confidence: 0.7,
      evidence: [],
      details: found?.details ?? {},
    });
    expect(plan.map((p) => p.commands[0])).toEqual([
      'perl Makefile.PL INSTALLDIRS=vendor',
      'make -j"$(nproc)"',
      'make test',
      'make DESTDIR="$RVPORT_DESTDIR" install',
    ]);
    const build = SourceTree.fromFiles({ 'Build.PL': 'use Module::Build;', 'lib/Foo.pm': '1;' });
    expect(perl.detect(build, '')?.details).toEqual({ script: 'Build.PL', xs: false });
    expect(perl.detect(SourceTree.fromFiles({ Makefile: 'all:' }), '')).toBeNull();
  });
});
