import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../process/runProcess.ts';
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
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion
      'perl Makefile.PL INSTALLDIRS=vendor ${CFLAGS:+"OPTIMIZE=$CFLAGS $CPPFLAGS"}',
      'make -j"$(nproc)"',
      'make test',
      'make DESTDIR="$RVPORT_DESTDIR" install',
    ]);
    const build = SourceTree.fromFiles({ 'Build.PL': 'use Module::Build;', 'lib/Foo.pm': '1;' });
    expect(perl.detect(build, '')?.details).toEqual({ script: 'Build.PL', xs: false });
    expect(perl.detect(SourceTree.fromFiles({ Makefile: 'all:' }), '')).toBeNull();
  });
});

describe('the perl plan and the C flags', () => {
  it("passes CFLAGS to MakeMaker as OPTIMIZE when set, and leaves perl's own otherwise", async () => {
    const candidate = {
      type: 'perl' as const,
      dir: '.',
      confidence: 0.7,
      evidence: [],
      details: { script: 'Makefile.PL' },
    };
    const configure = perl.defaultPlan(candidate)[0]?.commands[0] as string;
    const dir = mkdtempSync(join(tmpdir(), 'rvport-perl-plan-'));
    try {
      writeFileSync(
        join(dir, 'Makefile.PL'),
        "use ExtUtils::MakeMaker;\nWriteMakefile(NAME => 'Foo', VERSION => '1');\n",
      );
      writeFileSync(join(dir, 'Foo.xs'), '#include "EXTERN.h"\n');
      const optimize = async (env: Record<string, string>) => {
        const r = await runProcess({
          command: ['/bin/sh', '-c', configure],
          cwd: dir,
          env: { PATH: '/usr/bin:/bin', ...env },
        });
        expect(r.exitCode, r.stderr).toBe(0);
        return /^OPTIMIZE = (.*)$/m.exec(readFileSync(join(dir, 'Makefile'), 'utf8'))?.[1];
      };
      expect(await optimize({ CFLAGS: '-g -O2 -fpermissive' })).toBe('-g -O2 -fpermissive ');
      const own = await optimize({});
      expect(own).toBeDefined();
      expect(own).not.toContain('-fpermissive');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
