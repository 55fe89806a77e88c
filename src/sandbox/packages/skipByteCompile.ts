import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DPKG_BACKEND_DIR, placeDpkgPath } from './dpkgBackend.ts';

/**
 * The byte-compilers that Python packages' maintainer scripts call (dh_python3's postinst:
 * `if command -v py3compile …; then py3compile -p PKG; fi`, the same for pypy3compile). Under
 * emulation each compiles every module of its package (python3-pygments: 13 s, a meson build's
 * dozen python3-* Build-Depends: about 35 s of a 131 s install). The .pyc files are a cache:
 * Python compiles a module when it first imports it and writes the .pyc then (an instance's
 * root can), so a build sees the same modules, and no build output contains the system's .pyc.
 */
export const BYTE_COMPILERS = ['py3compile', 'pypy3compile'] as const;

/** The script that stands for a byte-compiler in dpkg's PATH: it compiles nothing. */
export const SKIP_SCRIPT =
  '#!/bin/sh\n# rvport (sandbox/packages/skipByteCompile.ts): no byte-compilation at install; Python compiles on import\nexit 0\n';

/** Puts the byte-compilers' stand-ins first in dpkg's PATH in a layer's `tree` (made on the host). */
export async function placeByteCompileSkip(tree: string): Promise<string[]> {
  await placeDpkgPath(tree);
  for (const name of BYTE_COMPILERS)
    await writeFile(join(tree, DPKG_BACKEND_DIR, name), SKIP_SCRIPT, { mode: 0o755 });
  return [...BYTE_COMPILERS];
}
