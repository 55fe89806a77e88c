import { readdirSync, readFileSync } from 'node:fs';

/**
 * Enough to recognise a process group again after rvport itself was killed: its id, when its
 * leader started (clock ticks since boot) and which boot that was. A resumed run uses it to stop
 * a command left running by the killed run before starting it again (two `make`s in one tree
 * would corrupt it).
 */
export interface ProcessGroupRef {
  pgid: number;
  leaderStart: number;
  bootId: string;
}

interface ProcStat {
  pid: number;
  pgrp: number;
  start: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // after "pid (comm) ": state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt
    // utime stime cutime cstime priority nice num_threads itrealvalue starttime
    return { pid, pgrp: Number(fields[2]), start: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

export function describeProcessGroup(leaderPid: number): ProcessGroupRef | undefined {
  const stat = readStat(leaderPid);
  return stat ? { pgid: leaderPid, leaderStart: stat.start, bootId: bootId() } : undefined;
}

/**
 * Kills what is left of a recorded process group. Safe against reuse of the number: a group id
 * cannot be reused while the group has members, so a group whose leader is gone is still ours;
 * a leader that exists must have the recorded start time. Returns true when it sent the signal.
 */
export function killStaleProcessGroup(ref: ProcessGroupRef): boolean {
  if (!ref.bootId || ref.bootId !== bootId()) return false;
  let members: ProcStat[];
  try {
    members = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map((name) => readStat(Number(name)))
      .filter((s): s is ProcStat => s?.pgrp === ref.pgid);
  } catch {
    return false;
  }
  if (members.length === 0) return false;
  const leader = members.find((m) => m.pid === ref.pgid);
  if (leader && leader.start !== ref.leaderStart) return false;
  try {
    process.kill(-ref.pgid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}
