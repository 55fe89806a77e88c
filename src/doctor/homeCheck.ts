import { randomBytes } from 'node:crypto';
import { readFile, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { rvportHome } from '../config/rvportHome.ts';
import { type DoctorCheck, failed, passed, warned } from './DoctorCheck.ts';

/** Below this, provisioning the images (about 4 GiB) and a few builds may not fit. */
export const LOW_FREE_BYTES = 10 * 1024 ** 3;

export interface HomeFacts {
  home: string;
  exists: boolean;
  /** A file could be created in it (or, when it is missing, in the folder it would be created in). */
  writable: boolean;
  /** Why not (`EROFS`, `EACCES`, `ENOTDIR`, …). */
  errorCode?: string;
  /** The folder the answers are about: `home`, or its nearest existing ancestor. */
  probed: string;
  /** The mount point `probed` is on, for a remount fix. */
  mountPoint?: string;
  freeBytes?: number;
  user: string;
}

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;

export function evaluateHome(facts: HomeFacts): DoctorCheck[] {
  const { home } = facts;
  const elsewhere = 'or set RVPORT_HOME to a folder on a writable local disk';
  if (!facts.writable) {
    const where = facts.exists
      ? home
      : `${facts.probed} (RVPORT_HOME ${home} does not exist and cannot be created there)`;
    const fix =
      facts.errorCode === 'EROFS'
        ? `mount -o remount,rw ${facts.mountPoint ?? facts.probed}   (${elsewhere})`
        : facts.errorCode === 'EACCES' || facts.errorCode === 'EPERM'
          ? `chown -R ${facts.user} ${facts.probed}   (as root; ${elsewhere})`
          : `export RVPORT_HOME=<a folder on a writable local disk>`;
    const reason =
      facts.errorCode === 'EROFS'
        ? 'is on a read-only filesystem'
        : `is not writable (${facts.errorCode ?? 'unknown error'})`;
    return [failed('rvport-home', `RVPORT_HOME ${where} ${reason}`, fix)];
  }
  const checks = [
    passed(
      'rvport-home',
      facts.exists ? `RVPORT_HOME ${home} is writable` : `RVPORT_HOME ${home} will be created`,
    ),
  ];
  if (facts.freeBytes === undefined) return checks;
  checks.push(
    facts.freeBytes < LOW_FREE_BYTES
      ? warned(
          'disk-space',
          `only ${gib(facts.freeBytes)} free in ${facts.probed}: the images take about 4 GiB and every build more`,
          `free some space on that disk, ${elsewhere} with at least ${gib(LOW_FREE_BYTES)} free`,
        )
      : passed('disk-space', `${gib(facts.freeBytes)} free in ${facts.probed}`),
  );
  return checks;
}

/** The mount point of `path`: the longest mount point in mountinfo that contains it. */
export function mountPointOf(path: string, mountinfo: string): string | undefined {
  let best: string | undefined;
  for (const line of mountinfo.split('\n')) {
    const point = line.split(' ')[4]?.replace(/\\040/g, ' ');
    if (!point) continue;
    const inside = point === '/' || path === point || path.startsWith(`${point}/`);
    if (inside && (best === undefined || point.length > best.length)) best = point;
  }
  return best;
}

/** Creates and removes one file to know for sure (root passes permission checks, not a read-only mount). */
async function tryWrite(dir: string): Promise<string | undefined> {
  const probe = join(dir, `.rvport-doctor-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(probe, '', { flag: 'wx' });
    await rm(probe, { force: true });
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'EIO';
  }
}

export async function gatherHomeFacts(env: NodeJS.ProcessEnv, user: string): Promise<HomeFacts> {
  const home = rvportHome(env);
  let probed = home;
  let exists = false;
  let errorCode: string | undefined;
  for (;;) {
    const s = await stat(probed).catch((error: NodeJS.ErrnoException) => error.code ?? 'EIO');
    if (typeof s !== 'string') {
      exists = probed === home;
      if (!s.isDirectory()) errorCode = 'ENOTDIR';
      break;
    }
    if (s !== 'ENOENT' || dirname(probed) === probed) {
      errorCode = s;
      break;
    }
    probed = dirname(probed);
  }
  errorCode ??= await tryWrite(probed);
  const mountinfo = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  const space = errorCode ? undefined : await statfs(probed).catch(() => undefined);
  const mountPoint = mountPointOf(probed, mountinfo);
  return {
    home,
    exists,
    writable: errorCode === undefined,
    ...(errorCode ? { errorCode } : {}),
    probed,
    ...(mountPoint ? { mountPoint } : {}),
    ...(space ? { freeBytes: space.bavail * space.bsize } : {}),
    user,
  };
}
