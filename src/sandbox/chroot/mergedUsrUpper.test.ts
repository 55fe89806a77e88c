import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readlink, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MERGED_USR_UPPER, writeUpperEntries } from './mergedUsrUpper.ts';

const fresh = () => mkdtemp(join(tmpdir(), 'rvport-upper-'));

// The test systemd's pre-installation script makes (trixie), with DPKG_ROOT as the root: the
// folders merged-/usr links must resolve under /usr, the architecture ones anywhere under /usr/lib.
const DEBIAN_IS_MERGED = `
for dir in /bin /sbin /lib; do
  [ -e "$DPKG_ROOT$dir" ] || continue
  [ "$(readlink -f "$DPKG_ROOT$dir")" = "$DPKG_ROOT/usr$dir" ] || exit 1
done
for dir in /lib64 /lib32 /libo32 /libx32; do
  [ -e "$DPKG_ROOT$dir" ] || continue
  case "$(readlink -f "$DPKG_ROOT$dir")" in "$DPKG_ROOT/usr/lib"*) ;; *) exit 1;; esac
done
`;
const isMerged = (root: string) => {
  try {
    execFileSync('sh', ['-c', DEBIAN_IS_MERGED], { env: { DPKG_ROOT: root, PATH: '/usr/bin:/bin' } });
    return true;
  } catch {
    return false;
  }
};

describe('MERGED_USR_UPPER', () => {
  it("makes /lib64 the usr/lib64 link Debian's merged-/usr check accepts, where the layers' link fails it", async () => {
    const root = await fresh();
    await writeUpperEntries(root, MERGED_USR_UPPER);
    expect(await readlink(join(root, 'lib64'))).toBe('usr/lib64');
    expect(isMerged(root)).toBe(true);

    // what the layers have on their own (the loader's folder of the tools tree) is refused
    const layer = await fresh();
    await mkdir(join(layer, 'native/usr/lib64'), { recursive: true });
    await symlink(join(layer, 'native/usr/lib64'), join(layer, 'lib64'));
    expect(isMerged(layer)).toBe(false);
  });

  it('still leads the x86_64 loader path into the tools tree', async () => {
    const root = await fresh();
    await writeUpperEntries(root, MERGED_USR_UPPER);
    // resolved by hand as the kernel does inside, where the tools tree is /native
    const dir = await readlink(join(root, 'lib64'));
    expect(await readlink(join(root, dir, 'ld-linux-x86-64.so.2'))).toBe(
      '/native/usr/lib64/ld-linux-x86-64.so.2',
    );
  });
});

describe('writeUpperEntries', () => {
  it('makes folders with their own mode whatever the umask', async () => {
    const root = await fresh();
    const before = process.umask(0o077);
    try {
      await writeUpperEntries(root, MERGED_USR_UPPER);
    } finally {
      process.umask(before);
    }
    for (const dir of ['usr', 'usr/lib64']) {
      const info = await lstat(join(root, dir));
      expect(info.isDirectory()).toBe(true);
      expect(info.mode & 0o7777).toBe(0o755);
    }
  });

  it('never writes through a link: a parent that is a link to a host folder is refused, the folder untouched', async () => {
    const root = await fresh();
    const canary = await fresh();
    await writeFile(join(canary, 'canary'), 'host');
    await symlink(canary, join(root, 'usr'));
    // the parent check (usr/lib64 under the link), and the whole list (usr itself exists)
    await expect(writeUpperEntries(root, MERGED_USR_UPPER.slice(1))).rejects.toThrow(
      /usr is not a folder of the instance's upper layer/,
    );
    await expect(writeUpperEntries(root, MERGED_USR_UPPER)).rejects.toMatchObject({ code: 'sandbox-failed' });
    expect(await readdir(canary)).toEqual(['canary']);
  });

  it('replaces nothing: an entry that exists already (a link included) is an error', async () => {
    const root = await fresh();
    const canary = await fresh();
    await mkdir(join(root, 'usr/lib64'), { recursive: true });
    await symlink(canary, join(root, 'usr/lib64/ld-linux-x86-64.so.2'));
    await expect(writeUpperEntries(root, MERGED_USR_UPPER.slice(2))).rejects.toMatchObject({
      code: 'sandbox-failed',
      message: expect.stringContaining('could not prepare'),
    });
    expect(await readdir(canary)).toEqual([]);
    await expect(writeUpperEntries(root, [{ path: 'usr', kind: 'dir', mode: 0o755 }])).rejects.toMatchObject({
      code: 'sandbox-failed',
    });
  });

  it('refuses a path that leaves the upper layer', async () => {
    const root = await fresh();
    for (const path of ['../x', 'usr/../../x', '/etc', 'usr//x'])
      await expect(writeUpperEntries(root, [{ path, kind: 'link', target: 'y' }])).rejects.toThrow(
        /not a relative path/,
      );
  });
});
