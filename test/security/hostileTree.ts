import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A string that must never appear in anything rvport produces from a hostile tree. */
export const CANARY = 'RVPORT-CANARY-5e1f0c77-secret';
const fixtures = join(import.meta.dirname, '..', '..', 'src', 'verify', 'fixtures');

export interface HostileTree {
  /** Holds the host's secrets and the tree; remove it after the test. */
  base: string;
  /** The host file the links aim at. */
  canary: string;
  /** A host folder the links aim at (with build files and an x86_64 object in it). */
  canaryDir: string;
  /** A source tree as a repository could ship it. */
  tree: string;
  /** A sandbox workspace as a build could leave it: src/ (the tree built) and dest/ -> /. */
  workspace: string;
}

/**
 * Host secrets next to a source tree and a build workspace whose links lead to them: absolute
 * (`configure.ac -> /…/canary`), relative (`CMakeLists.txt -> ../canary`), a chain leaving
 * through `..` (`INSTALL -> chain/…`, `chain -> sub/up`, `sub/up -> ../..`), folder links
 * (`m4 -> host folder`, `dest -> /`), besides legitimate in-tree links (`README -> README.md`).
 * The canary text is written to be picked up by every reader: it is a build file, a dependency,
 * C source, and it sits next to an x86_64 object that would fail verification. `workspaceAt`
 * puts the workspace in an existing folder (a sandbox's).
 */
export function hostileTree(workspaceAt?: string): HostileTree {
  const base = mkdtempSync(join(tmpdir(), 'rvport-hostile-'));
  const canary = join(base, 'canary-secret');
  const canaryDir = join(base, 'canary-dir');
  writeFileSync(
    canary,
    [
      `AC_INIT([${CANARY}], [1.0])`,
      `PKG_CHECK_MODULES([LEAK], [${CANARY.toLowerCase()} >= 1])`,
      `project(${CANARY})`,
      `int ${CANARY.replace(/-/g, '_')}(void) { return 0; } /* ${CANARY} */`,
      `--disable-${CANARY}`,
      '',
    ].join('\n'),
  );
  mkdirSync(canaryDir);
  writeFileSync(join(canaryDir, 'configure.ac'), `AC_INIT([${CANARY}])\n`);
  writeFileSync(join(canaryDir, 'Makefile'), `all:\n\techo ${CANARY}\n`);
  writeFileSync(join(canaryDir, 'secret.h'), `#define SECRET "${CANARY}"\n`);
  copyFileSync(join(fixtures, 'x86_64-exe'), join(canaryDir, 'host-program'));

  const tree = join(base, 'tree');
  mkdirSync(join(tree, 'src'), { recursive: true });
  mkdirSync(join(tree, 'sub'));
  writeFileSync(join(tree, 'README.md'), 'A small hostile package.\n');
  writeFileSync(join(tree, 'Makefile.am'), 'SUBDIRS = src\n');
  writeFileSync(join(tree, 'src', 'main.c'), 'int main(void) { return 0; }\n');
  symlinkSync('README.md', join(tree, 'README'));
  symlinkSync(canary, join(tree, 'configure.ac'));
  symlinkSync('../canary-secret', join(tree, 'CMakeLists.txt'));
  symlinkSync(canary, join(tree, 'src', 'x.c'));
  symlinkSync('../canary-dir', join(tree, 'm4'));
  symlinkSync('/', join(tree, 'hostroot'));
  symlinkSync('../..', join(tree, 'sub', 'up'));
  symlinkSync('sub/up', join(tree, 'chain'));
  symlinkSync('chain/canary-secret', join(tree, 'INSTALL'));

  // The build's workspace: the tree it built, with outputs, and the links a build can plant.
  const workspace = workspaceAt ?? join(base, 'workspace');
  const built = join(workspace, 'src');
  mkdirSync(join(built, 'bin'), { recursive: true });
  copyFileSync(join(fixtures, 'riscv64-exe'), join(built, 'bin', 'hello'));
  chmodSync(join(built, 'bin', 'hello'), 0o6755); // setuid and setgid root, as a build run as root can
  copyFileSync(join(fixtures, 'riscv64-lib.so'), join(built, 'libhello.so.1'));
  symlinkSync('libhello.so.1', join(built, 'libhello.so'));
  symlinkSync(join(canaryDir, 'host-program'), join(built, 'bin', 'stolen'));
  symlinkSync('../canary-dir', join(built, 'hostdir'));
  symlinkSync(canary, join(built, 'configure'));
  execFileSync('mkfifo', [join(built, 'bin', 'pipe')]);
  symlinkSync('/', join(workspace, 'dest'));
  return { base, canary, canaryDir, tree, workspace };
}
