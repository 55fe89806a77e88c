import { mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EM_RISCV, EM_X86_64 } from '../provision/userlandSwap.ts';
import { type SandboxPaths, sandboxPaths } from '../sandboxPaths.ts';
import { DPKG_BACKEND_DIR, nativeDpkgBackend, placeDpkgBackend } from './dpkgBackend.ts';

let home: string;
let paths: SandboxPaths;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'rvport-dpkg-backend-'));
  paths = sandboxPaths(home);
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** An image tree with dpkg VERSION installed and a dpkg-deb of ELF machine `machine`. */
async function tree(key: string, version: string, machine: number | 'link'): Promise<void> {
  const root = join(paths.image(key), 'tree');
  await mkdir(join(root, 'var/lib/dpkg/info'), { recursive: true });
  await mkdir(join(root, 'usr/bin'), { recursive: true });
  await writeFile(
    join(root, 'var/lib/dpkg/status'),
    `Package: dpkg\nStatus: install ok installed\nArchitecture: any\nVersion: ${version}\n\n`,
  );
  await writeFile(join(root, 'var/lib/dpkg/info/dpkg.list'), '/usr\n/usr/bin\n/usr/bin/dpkg-deb\n');
  if (machine === 'link') {
    await symlink('/bin/true', join(root, 'usr/bin/dpkg-deb'));
    return;
  }
  const elf = Buffer.alloc(64);
  elf.writeUInt32BE(0x7f454c46, 0);
  elf.writeUInt16LE(machine, 18);
  await writeFile(join(root, 'usr/bin/dpkg-deb'), elf, { mode: 0o755 });
}

describe('nativeDpkgBackend', () => {
  it('takes the tools tree’s x86_64 dpkg-deb when both trees have the same dpkg', async () => {
    await tree('rootfs', '1.22.22', EM_RISCV);
    await tree('tools', '1.22.22', EM_X86_64);
    expect(await nativeDpkgBackend(paths, 'rootfs', 'tools')).toEqual({
      link: '/native/usr/bin/dpkg-deb',
      version: '1.22.22',
    });
  });

  it('keeps the riscv64 extractor for another dpkg version', async () => {
    await tree('rootfs', '1.22.22', EM_RISCV);
    await tree('tools', '1.22.21', EM_X86_64);
    expect(await nativeDpkgBackend(paths, 'rootfs', 'tools')).toEqual({
      refused: 'dpkg 1.22.21 in the tools tree, 1.22.22 in the rootfs',
    });
  });

  it('keeps it when the tools tree’s dpkg-deb is not an x86_64 program (or only a link)', async () => {
    await tree('rootfs', '1.22.22', EM_RISCV);
    await tree('tools', '1.22.22', EM_RISCV);
    expect(await nativeDpkgBackend(paths, 'rootfs', 'tools')).toEqual({
      refused: "the tools tree's /usr/bin/dpkg-deb is not an x86_64 program",
    });
    await tree('linked', '1.22.22', 'link');
    expect(await nativeDpkgBackend(paths, 'rootfs', 'linked')).toHaveProperty('refused');
  });

  it('keeps it when a tree has no dpkg', async () => {
    await tree('rootfs', '1.22.22', EM_RISCV);
    await mkdir(join(paths.image('empty'), 'tree'), { recursive: true });
    expect(await nativeDpkgBackend(paths, 'rootfs', 'empty')).toEqual({
      refused: 'dpkg is not installed in the tools tree',
    });
  });
});

describe('placeDpkgBackend', () => {
  it('links the extractor into its folder and puts that folder first in the PATH apt gives dpkg', async () => {
    const tree = join(home, 'layer');
    await placeDpkgBackend(tree, { link: '/native/usr/bin/dpkg-deb' });
    expect(await readlink(join(tree, DPKG_BACKEND_DIR, 'dpkg-deb'))).toBe('/native/usr/bin/dpkg-deb');
    const conf = await readFile(join(tree, 'etc/apt/apt.conf.d/99rvport-dpkg-backend'), 'utf8');
    expect(conf).toContain(`DPkg::Path "${DPKG_BACKEND_DIR}:/usr/sbin:/usr/bin:/sbin:/bin";`);
  });
});
