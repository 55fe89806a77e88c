import { constants } from 'node:fs';
import { lstat, mkdir, open, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxError } from '../errors.ts';

/** One entry written into a fresh instance's upper layer. */
export type UpperEntry =
  | { path: string; kind: 'dir'; mode: number }
  | { path: string; kind: 'link'; target: string };

/**
 * What a layered instance's upper layer starts with. The layers link `/lib64` to the x86_64
 * tools tree (`/native/usr/lib64`) so x86_64 programs find their loader; Debian counts a system
 * merged-/usr only when `/lib64` resolves somewhere under `/usr/lib`, and systemd's
 * pre-installation script refuses to install otherwise (and with it everything that pulls
 * systemd: D-Bus, udev, much of GLib, GTK and Qt). Here `/lib64` becomes the `usr/lib64` link
 * Debian expects and the loader is linked from there into the tools tree, so both hold.
 *
 * Done in the instance and not in the layer scripts: a layer's key is what the committed
 * native-userland proofs name, and changing a layer would make every proof stale. An entry in
 * the upper layer hides the layer's own `/lib64`, and accelerated and native-userland instances
 * get the same entries, so what the proofs compared stays the same between the two modes.
 */
export const MERGED_USR_UPPER: readonly UpperEntry[] = [
  { path: 'usr', kind: 'dir', mode: 0o755 },
  { path: 'usr/lib64', kind: 'dir', mode: 0o755 },
  { path: 'usr/lib64/ld-linux-x86-64.so.2', kind: 'link', target: '/native/usr/lib64/ld-linux-x86-64.so.2' },
  { path: 'lib64', kind: 'link', target: 'usr/lib64' },
];

/**
 * Writes `entries` (parents first) into `upperDir`, a folder the host just made and no sandbox
 * command has seen yet. Nothing is followed or replaced: each parent must be a real folder (not
 * a link) and each entry must not exist yet, so even a tampered folder cannot redirect a write
 * to the host. The caller hands the result to the sandbox's root afterwards (chown -P).
 */
export async function writeUpperEntries(upperDir: string, entries: readonly UpperEntry[]): Promise<void> {
  for (const entry of entries) {
    const parts = entry.path.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..'))
      throw new SandboxError('sandbox-failed', `not a relative path inside the upper layer: ${entry.path}`);
    for (let i = 0; i < parts.length; i++) {
      const parent = join(upperDir, ...parts.slice(0, i));
      const info = await lstat(parent).catch(() => undefined);
      if (!info?.isDirectory())
        throw new SandboxError('sandbox-failed', `${parent} is not a folder of the instance's upper layer`);
    }
    const path = join(upperDir, entry.path);
    try {
      if (entry.kind === 'dir') {
        await mkdir(path);
        // explicit (the host's umask, 077 for some, must not decide what the sandbox sees), on
        // the folder just made: opened without following a link
        const dir = await open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
        try {
          await dir.chmod(entry.mode);
        } finally {
          await dir.close();
        }
      } else {
        await symlink(entry.target, path);
      }
    } catch (error) {
      throw new SandboxError(
        'sandbox-failed',
        `could not prepare ${path} in the instance's upper layer: ${(error as Error).message}`,
      );
    }
  }
}
