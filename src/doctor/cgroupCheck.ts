import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ownCgroup, parseCgroupMounts } from '../sandbox/index.ts';
import { type DoctorCheck, passed, warned } from './DoctorCheck.ts';

interface Hierarchy {
  path: string;
  writable: boolean;
}

/** What the sandbox's memory and process limits can be enforced with (see createCgroupPlacement). */
export interface CgroupFacts {
  v1: { memory?: Hierarchy; pids?: Hierarchy };
  /** rvport's own cgroup in the unified hierarchy, with the controllers it hands down. */
  v2?: Hierarchy & { subtreeControl: string[] };
}

const LIMITS =
  'the memory limit of sandbox commands will not apply, and the process limit falls back to a per-user limit';

export function evaluateCgroups(facts: CgroupFacts): DoctorCheck[] {
  const id = 'cgroups';
  const { memory, pids } = facts.v1;
  if (memory?.writable && pids?.writable) {
    return [passed(id, 'cgroup v1 memory and pids are writable: sandbox memory and process limits apply')];
  }
  const v2 = facts.v2;
  const delegated = v2 && ['memory', 'pids'].every((c) => v2.subtreeControl.includes(c));
  if (v2 && delegated && v2.writable) {
    return [
      passed(id, `cgroup v2 ${v2.path} delegates memory and pids: sandbox memory and process limits apply`),
    ];
  }
  // Like createCgroupPlacement: v1 memory+pids first, the unified hierarchy otherwise; the warning
  // names what is wrong with each hierarchy there is.
  const problems: string[] = [];
  const fixes: string[] = [];
  const v1Mounted = memory !== undefined || pids !== undefined;
  if (v1Mounted || !v2) {
    for (const [name, h] of [
      ['memory', memory],
      ['pids', pids],
    ] as const) {
      if (!h) {
        problems.push(`cgroup v1 ${name} is not mounted`);
        fixes.push(
          `mkdir -p /sys/fs/cgroup/${name} && mount -t cgroup -o ${name} cgroup /sys/fs/cgroup/${name}`,
        );
      } else if (!h.writable) {
        problems.push(`cgroup v1 ${name} (${h.path}) is not writable`);
      }
    }
  }
  if (v2) {
    const missing = ['memory', 'pids'].filter((c) => !v2.subtreeControl.includes(c));
    if (missing.length > 0) {
      problems.push(`cgroup v2 ${v2.path} does not delegate ${missing.join(' and ')}`);
      fixes.push(
        `echo '${missing.map((c) => `+${c}`).join(' ')}' > ${join(v2.path, 'cgroup.subtree_control')}   (as root)`,
      );
    } else if (!v2.writable) {
      problems.push(`cgroup v2 ${v2.path} is not writable by this user`);
    }
  }
  if (problems.some((p) => p.includes('not writable'))) {
    fixes.push('run rvport as root, or under systemd-run --user --scope -p Delegate=yes');
  }
  return [warned(id, `${problems.join(', ')}: ${LIMITS}`, fixes.join('; '))];
}

async function writable(path: string): Promise<boolean> {
  return access(path, constants.W_OK).then(
    () => true,
    () => false,
  );
}

export async function gatherCgroupFacts(): Promise<CgroupFacts> {
  const mounts = parseCgroupMounts(await readFile('/proc/self/mountinfo', 'utf8').catch(() => ''));
  const facts: CgroupFacts = { v1: {} };
  for (const name of ['memory', 'pids'] as const) {
    const path = mounts.v1[name];
    if (path) facts.v1[name] = { path, writable: await writable(path) };
  }
  if (mounts.v2) {
    const self = await readFile('/proc/self/cgroup', 'utf8').catch(() => '');
    const path = join(mounts.v2, ownCgroup(self, '') ?? '/').replace(/(.)\/+$/, '$1');
    const control = await readFile(join(path, 'cgroup.subtree_control'), 'utf8').catch(() => '');
    facts.v2 = { path, writable: await writable(path), subtreeControl: control.split(/\s+/).filter(Boolean) };
  }
  return facts;
}
