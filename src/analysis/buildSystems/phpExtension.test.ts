import { describe, expect, it } from 'vitest';
import { SourceTree } from '../SourceTree.ts';
import { phpExtension } from './phpExtension.ts';

describe('php extension detector', () => {
  it('finds a config.m4 that declares an extension, in its folder, and builds it with phpize', () => {
    const tree = SourceTree.fromFiles({
      'package.xml': '<package/>',
      'msgpack-3.0.0/config.m4':
        'PHP_ARG_WITH(msgpack, for msgpack support,)\nPHP_NEW_EXTENSION(msgpack, msgpack.c, $ext_shared)',
      'msgpack-3.0.0/msgpack.c': '',
    });
    expect(phpExtension.detect(tree, '')).toBeNull();
    expect(phpExtension.detect(tree, 'msgpack-3.0.0')?.evidence).toEqual(['msgpack-3.0.0/config.m4']);
    const plan = phpExtension.defaultPlan({
      type: 'php',
      dir: 'msgpack-3.0.0',
      confidence: 0.85,
      evidence: [],
      details: {},
    });
    expect(plan.map((p) => `${p.name}: ${p.commands[0]}`)).toEqual([
      'bootstrap: phpize',
      'configure: ./configure',
      'build: make -j"$(nproc)"',
      'test: make test NO_INTERACTION=1 REPORT_EXIT_STATUS=1',
      'install: make INSTALL_ROOT="$RVPORT_DESTDIR" install',
    ]);
    // an autoconf macro file of another project is not a PHP extension
    expect(phpExtension.detect(SourceTree.fromFiles({ 'config.m4': 'AC_DEFUN([X])' }), '')).toBeNull();
  });
});
