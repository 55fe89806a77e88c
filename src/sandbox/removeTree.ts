import { readFile } from 'node:fs/promises';
import { runProcess } from '../process/runProcess.ts';
import { readSubordinateIds } from './userns/subordinateIds.ts';
import { asTreeOwner } from './userns/userNamespace.ts';

/** Mount points at or under `root`, deepest first, from a /proc/self/mountinfo text. */
export function mountsUnder(mountinfo: string, root: string): string[] {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  const points: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const field = line.split(' ')[4];
    if (!field) continue;
    const point = field.replace(/\\([0-7]{3})/g, (_, octal: string) =>
      String.fromCharCode(Number.parseInt(octal, 8)),
    );
    if (point === root || point.startsWith(prefix)) points.push(point);
  }
  return points.sort((a, b) => b.length - a.length);
}

/** Detaches every mount at or under `root` (a killed provisioning may leave /proc or /dev bound). */
export async function detachMountsUnder(root: string): Promise<string[]> {
  const mountinfo = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  const detached: string[] = [];
  for (const point of mountsUnder(mountinfo, root)) {
    const result = await runProcess({ command: ['umount', '-l', point], timeoutMs: 30_000 });
    if (result.exitCode === 0) detached.push(point);
  }
  return detached;
}

/**
 * Removes a tree that may hold root-owned files, overlay work folders and, after a crash, mounts:
 * mounts are detached first and `rm` never crosses into another filesystem, so a leftover bind
 * of the host's /dev or /sys can never be emptied.
 */
export async function removeTree(dir: string): Promise<void> {
  await detachMountsUnder(dir);
  const command = ['rm', '-rf', '--one-file-system', '--', dir];
  let result = await runProcess({ command, timeoutMs: 30 * 60_000 });
  if (result.exitCode !== 0 && process.getuid?.() !== 0) {
    // an ordinary user cannot remove what the sandbox's ids own: remove it with their rights
    const ids = (() => {
      try {
        return readSubordinateIds();
      } catch {
        return undefined;
      }
    })();
    if (ids) result = await runProcess({ command: asTreeOwner(ids, command), timeoutMs: 30 * 60_000 });
  }
  if (result.exitCode !== 0) throw new Error(`could not remove ${dir}: ${result.stderr.trim()}`);
}
