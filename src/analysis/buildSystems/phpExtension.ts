import { joinPath } from '../SourceTree.ts';
import { type BuildSystemDetector, PARALLEL } from './BuildSystemDetector.ts';

/**
 * A PHP extension: a `config.m4` that declares it (`PHP_NEW_EXTENSION`), built the way PECL and
 * Debian's php-* packages build one: `phpize` writes its configure from the installed PHP's
 * headers and macros, and the result is a shared object the riscv64 PHP loads.
 */
export const phpExtension: BuildSystemDetector = {
  type: 'php',
  detect(tree, dir) {
    if (!tree.filesIn(dir).includes('config.m4')) return null;
    const path = joinPath(dir, 'config.m4');
    if (!/\bPHP_NEW_EXTENSION\s*\(|\bPHP_ARG_(WITH|ENABLE)\s*\(/.test(tree.read(path) ?? '')) return null;
    return { confidence: 0.85, evidence: [path], details: {} };
  },
  defaultPlan() {
    return [
      { name: 'bootstrap', commands: ['phpize'] },
      { name: 'configure', commands: ['./configure'] },
      { name: 'build', commands: [`make ${PARALLEL}`] },
      // run-tests.php asks questions and exits 0 on failures unless told otherwise
      { name: 'test', commands: ['make test NO_INTERACTION=1 REPORT_EXIT_STATUS=1'] },
      { name: 'install', commands: ['make INSTALL_ROOT="$RVPORT_DESTDIR" install'] },
    ];
  },
};
