import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { SandboxError } from '../errors.ts';

/** How many ids a sandbox's user namespace maps: the whole 16-bit range a Debian system uses. */
export const NAMESPACE_ID_COUNT = 65536;

export interface IdRange {
  start: number;
  count: number;
}

/** The host ids that become 0…65535 inside every sandbox (root inside is `uid.start` on the host). */
export interface SubordinateIds {
  uid: IdRange;
  gid: IdRange;
}

/** Who asks: the login name and numeric id, as /etc/subuid may name either. */
export interface IdOwner {
  name: string;
  id: number;
}

/**
 * The first range of `/etc/subuid` (or subgid) text that belongs to `owner` and is large enough
 * for a whole Debian id space; undefined when there is none.
 */
export function findSubordinateRange(text: string, owner: IdOwner): IdRange | undefined {
  for (const line of text.split('\n')) {
    const [who, start, count] = line.trim().split(':');
    if (!who || start === undefined || count === undefined) continue;
    if (who !== owner.name && who !== String(owner.id)) continue;
    const range = { start: Number(start), count: Number(count) };
    if (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.count)) continue;
    // id 0 of the host must never be inside the range
    if (range.start > 0 && range.count >= NAMESPACE_ID_COUNT) return range;
  }
  return undefined;
}

/** The command that gives `owner` a range, when none is there (what provisioning runs as root). */
export function subordinateIdsFix(user: string, start = 100000): string {
  const end = start + NAMESPACE_ID_COUNT - 1;
  return `usermod --add-subuids ${start}-${end} --add-subgids ${start}-${end} ${user}`;
}

export function currentIdOwner(): IdOwner {
  const info = userInfo();
  return { name: info.username, id: info.uid };
}

/**
 * The calling user's subordinate ids from /etc/subuid and /etc/subgid. Throws a host-not-ready
 * error naming the fix when a range is missing or smaller than 65536.
 */
export function readSubordinateIds(
  owner: IdOwner = currentIdOwner(),
  read: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): SubordinateIds {
  const text = (path: string) => {
    try {
      return read(path);
    } catch {
      return '';
    }
  };
  const uid = findSubordinateRange(text('/etc/subuid'), owner);
  const gid = findSubordinateRange(text('/etc/subgid'), owner);
  if (!uid || !gid) {
    throw new SandboxError(
      'host-not-ready',
      `${owner.name} has no range of ${NAMESPACE_ID_COUNT} subordinate ${uid ? 'group' : 'user'} ids in /etc/sub${uid ? 'gid' : 'uid'}: sandbox processes run as those ids, never as ${owner.name}`,
      { fix: `${subordinateIdsFix(owner.name)}   (as root; the uidmap package provides newuidmap)` },
    );
  }
  return { uid, gid };
}
