import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { imageTree } from '../imageStore.ts';
import { EM_X86_64, readPackageFiles } from '../provision/userlandSwap.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';

/**
 * Inside the sandbox: a folder that holds `dpkg-deb`, a link to the x86_64 build of the same dpkg
 * version in the tools tree, and the maintainer scripts' perl helpers of maintainerPerl.ts. apt
 * puts it first in the PATH it runs dpkg with (DPkg::Path, set in DPKG_BACKEND_CONF), so dpkg and
 * the maintainer scripts find them; a build's own commands never have it in theirs.
 */
export const DPKG_BACKEND_DIR = '/usr/lib/rvport-apt/bin';
const DPKG_BACKEND_CONF = '/etc/apt/apt.conf.d/99rvport-dpkg-backend';
/** apt's own DPkg::Path, with the folder first. */
const DPKG_BACKEND_SETTING = `// rvport: dpkg and maintainer scripts find x86_64 helpers here first (sandbox/packages/dpkgBackend.ts)
DPkg::Path "${DPKG_BACKEND_DIR}:/usr/sbin:/usr/bin:/sbin:/bin";
`;
const BACKEND = '/usr/bin/dpkg-deb';

export type DpkgBackend = { link: string; version: string } | { refused: string };

/**
 * Whether the tools tree's x86_64 `dpkg-deb` may unpack packages for the riscv64 dpkg. dpkg runs
 * its package extractor by name (`dpkg-deb --fsys-tarfile`, `--control`) and reads the tar stream
 * itself: the extractor only decompresses and copies bytes, which no machine changes, and under
 * emulation it is most of an install's CPU time (xz and zstd decompressed by emulated code). Taken
 * only when the tools tree has the same dpkg version as the rootfs and its dpkg-deb is an x86_64
 * program; dpkg itself, which knows the architecture it installs for, stays riscv64.
 */
export async function nativeDpkgBackend(
  paths: SandboxPaths,
  rootfsKey: string,
  toolsKey: string,
): Promise<DpkgBackend> {
  const dpkgOf = (key: string) =>
    readPackageFiles(imageTree(paths, key), ['dpkg']).then(
      (files) => files.get('dpkg'),
      () => undefined,
    );
  const riscv = await dpkgOf(rootfsKey);
  const native = await dpkgOf(toolsKey);
  if (!riscv) return { refused: 'dpkg is not installed in the rootfs' };
  if (!native) return { refused: 'dpkg is not installed in the tools tree' };
  if (riscv.version !== native.version)
    return { refused: `dpkg ${native.version} in the tools tree, ${riscv.version} in the rootfs` };
  if (native.executables.get(BACKEND) !== EM_X86_64)
    return { refused: `the tools tree's ${BACKEND} is not an x86_64 program` };
  return { link: `/native${BACKEND}`, version: riscv.version };
}

/** Puts the extractor's folder and apt's setting into a layer's `tree` (made on the host). */
export async function placeDpkgBackend(tree: string, backend: { link: string }): Promise<void> {
  await placeDpkgPath(tree);
  await symlink(backend.link, join(tree, DPKG_BACKEND_DIR, 'dpkg-deb'));
}

/**
 * Puts the folder and apt's setting that puts it first in dpkg's PATH into a layer's `tree`:
 * what dpkg and the maintainer scripts it runs find there (the extractor, maintainerPerl.ts's
 * helpers) they run instead of the rootfs's. Idempotent.
 */
export async function placeDpkgPath(tree: string): Promise<void> {
  await mkdir(join(tree, DPKG_BACKEND_DIR), { recursive: true });
  const conf = join(tree, DPKG_BACKEND_CONF);
  await mkdir(dirname(conf), { recursive: true });
  await writeFile(conf, DPKG_BACKEND_SETTING, { mode: 0o644 });
}
