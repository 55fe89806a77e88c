import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What one sandbox command may use at most. */
export interface ResourceLimits {
  memoryBytes: number;
  /** Processes and threads at once. */
  processes: number;
}

export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = {
  memoryBytes: 8 * 1024 ** 3,
  processes: 4096,
};

/** Which limit a command ran into. */
export interface LimitHits {
  memory: boolean;
  processes: boolean;
}

/** The cgroups one command's processes live in, created before it starts and removed after. */
export interface CgroupPlacement {
  /** How the limits are enforced, for status and reports ("cgroup v1 memory+pids", …). */
  readonly kind: string;
  /** Prefix of the host argv: the first process joins the cgroups, then execs the rest. */
  readonly joinArgv: readonly string[];
  /** Whether a limit was hit (read after the command ended). */
  hits(): Promise<LimitHits>;
  remove(): Promise<void>;
}

interface CgroupMounts {
  v1: { memory?: string; pids?: string };
  v2?: string;
}

/** cgroup mount points from /proc/self/mountinfo text. */
export function parseCgroupMounts(mountinfo: string): CgroupMounts {
  const found: CgroupMounts = { v1: {} };
  for (const line of mountinfo.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const point = left.split(' ')[4];
    const [fstype, , superOptions = ''] = right.split(' ');
    if (!point) continue;
    if (fstype === 'cgroup2') found.v2 ??= point;
    if (fstype !== 'cgroup') continue;
    const options = superOptions.split(',');
    if (options.includes('memory')) found.v1.memory = point;
    if (options.includes('pids')) found.v1.pids = point;
  }
  return found;
}

/** Our own cgroup path in hierarchy `controller` (v1) or the unified one ('' for v2). */
export function ownCgroup(procSelfCgroup: string, controller: string): string | undefined {
  for (const line of procSelfCgroup.split('\n')) {
    const [, controllers, path] = line.split(':');
    if (controllers === undefined || path === undefined) continue;
    if (controller === '' ? controllers === '' : controllers.split(',').includes(controller)) return path;
  }
  return undefined;
}

const JOIN_SCRIPT = 'while [ "$1" != -- ]; do echo $$ > "$1"; shift; done; shift; exec "$@"';

/**
 * cgroups for one command, named `name`, where this process may create them: cgroup v1 memory
 * and pids hierarchies (below rvport's own folder in each), or a v2 subtree we own with both
 * controllers. Undefined when neither is writable (an ordinary user without delegation); the
 * caller falls back to per-user process limits then.
 */
export async function createCgroupPlacement(
  name: string,
  limits: ResourceLimits = DEFAULT_RESOURCE_LIMITS,
): Promise<CgroupPlacement | undefined> {
  const mountinfo = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  const self = await readFile('/proc/self/cgroup', 'utf8').catch(() => '');
  const mounts = parseCgroupMounts(mountinfo);
  if (mounts.v1.memory && mounts.v1.pids) {
    const placement = await v1Placement(mounts.v1.memory, mounts.v1.pids, name, limits).catch(
      () => undefined,
    );
    if (placement) return placement;
  }
  if (mounts.v2) {
    const own = ownCgroup(self, '') ?? '/';
    return v2Placement(join(mounts.v2, own), name, limits).catch(() => undefined);
  }
  return undefined;
}

async function v1Placement(
  memoryRoot: string,
  pidsRoot: string,
  name: string,
  limits: ResourceLimits,
): Promise<CgroupPlacement> {
  const memory = join(memoryRoot, 'rvport', name);
  const pids = join(pidsRoot, 'rvport', name);
  await mkdir(memory, { recursive: true });
  await mkdir(pids, { recursive: true });
  try {
    await writeFile(join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
    // swap counts too where the kernel accounts it (otherwise the file is absent)
    await writeFile(join(memory, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes)).catch(() => {});
    await writeFile(join(pids, 'pids.max'), String(limits.processes));
  } catch (error) {
    await removeDirs([memory, pids]);
    throw error;
  }
  return {
    kind: 'cgroup v1 memory+pids',
    joinArgv: [
      '/bin/sh',
      '-c',
      JOIN_SCRIPT,
      'rvport-cgroup',
      join(memory, 'cgroup.procs'),
      join(pids, 'cgroup.procs'),
      '--',
    ],
    hits: async () => ({
      memory:
        counter(await readFile(join(memory, 'memory.oom_control'), 'utf8').catch(() => ''), 'oom_kill') > 0,
      processes: counter(await readFile(join(pids, 'pids.events'), 'utf8').catch(() => ''), 'max') > 0,
    }),
    remove: () => removeDirs([memory, pids]),
  };
}

async function v2Placement(parent: string, name: string, limits: ResourceLimits): Promise<CgroupPlacement> {
  const controllers = (await readFile(join(parent, 'cgroup.subtree_control'), 'utf8')).split(/\s+/);
  if (!controllers.includes('memory') || !controllers.includes('pids')) {
    throw new Error(`${parent} does not delegate memory and pids`);
  }
  const dir = join(parent, `rvport-${name}`);
  await mkdir(dir);
  try {
    await writeFile(join(dir, 'memory.max'), String(limits.memoryBytes));
    await writeFile(join(dir, 'memory.swap.max'), '0').catch(() => {});
    await writeFile(join(dir, 'pids.max'), String(limits.processes));
  } catch (error) {
    await removeDirs([dir]);
    throw error;
  }
  return {
    kind: 'cgroup v2 memory+pids',
    joinArgv: ['/bin/sh', '-c', JOIN_SCRIPT, 'rvport-cgroup', join(dir, 'cgroup.procs'), '--'],
    hits: async () => ({
      memory: counter(await readFile(join(dir, 'memory.events'), 'utf8').catch(() => ''), 'oom_kill') > 0,
      processes: counter(await readFile(join(dir, 'pids.events'), 'utf8').catch(() => ''), 'max') > 0,
    }),
    remove: () => removeDirs([dir]),
  };
}

/** A `key value` line's value in a cgroup stat file. */
export function counter(text: string, key: string): number {
  const match = new RegExp(`^${key} (\\d+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

/** A cgroup folder can be removed once its last process is reaped: retry briefly. */
async function removeDirs(dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        await rmdir(dir);
        break;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') break;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
}
