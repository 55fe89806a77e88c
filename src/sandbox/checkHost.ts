import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { runProcess } from '../process/runProcess.ts';
import { type BinfmtStatus, RISCV64_BINFMT, readBinfmtStatus } from './binfmtStatus.ts';
import {
  currentIdOwner,
  readSubordinateIds,
  type SubordinateIds,
  subordinateIdsFix,
} from './userns/subordinateIds.ts';
import { sandboxUserArgs } from './userns/userNamespace.ts';

/** Host commands the chroot backend runs, and the Debian package that provides each. */
export const HOST_COMMANDS: Readonly<Record<string, string>> = {
  'qemu-riscv64-static': 'qemu-user-static',
  mmdebstrap: 'mmdebstrap',
  zstd: 'zstd',
  'update-binfmts': 'binfmt-support',
  unshare: 'util-linux',
  setpriv: 'util-linux',
  // sandboxes run in user namespaces mapped to subordinate ids
  newuidmap: 'uidmap',
  newgidmap: 'uidmap',
  // mmdebstrap stops without it for a foreign architecture
  'arch-test': 'arch-test',
  tar: 'tar',
  // every source becomes a local git repository (hardened: no hooks, no repository config)
  git: 'git',
  // compiles the sandbox's entry program (chroot/enterProgram.ts, every sandbox command) and the
  // recorder of native-userland mode's per-build evidence (proof/evidenceLayer.ts)
  'musl-gcc': 'musl-tools',
};

/**
 * Debian packages rvport uses on the host besides those of HOST_COMMANDS: files or programs that
 * are on every Debian machine, so doctor does not check them, but that a package of rvport must
 * still depend on (scripts/build-deb.ts reads both tables).
 */
export const HOST_SUPPORT_PACKAGES: Readonly<Record<string, string>> = {
  // `xz -dc` and `bzip2 -dc` of source tarballs (sources/tar/openDecompressed.ts)
  'xz-utils': 'xz',
  bzip2: 'bzip2',
  // the Contents index's signed Release file (analysis/dependencies/ContentsIndex.ts)
  gpgv: 'gpgv',
  'debian-archive-keyring': '/usr/share/keyrings/debian-archive-keyring.gpg',
  // the private apt of `debian:` sources and Build-Depends (sources/PrivateApt.ts)
  apt: 'apt-get',
  // git and the mirror over https
  'ca-certificates': '/etc/ssl/certs/ca-certificates.crt',
};

/** Every Debian package rvport needs on the host, each once, in the tables' order. */
export function hostPackages(): string[] {
  return [...new Set([...Object.values(HOST_COMMANDS), ...Object.keys(HOST_SUPPORT_PACKAGES)])];
}

export interface HostFacts {
  isRoot: boolean;
  /** Debian-like: apt-get is there to install what is missing. */
  hasApt: boolean;
  /** Which of HOST_COMMANDS are on the PATH. */
  commands: Readonly<Record<string, boolean>>;
  binfmt: BinfmtStatus;
  overlayfs: boolean;
  /** A user namespace mapped to the subordinate ids, with mount, PID and network namespaces. */
  namespaces: boolean;
  /** The user running rvport has 65536 subordinate user and group ids. */
  subordinateIds: boolean;
  /** Who runs rvport (for the fixes). */
  user: string;
}

export interface HostCheck {
  id: string;
  ok: boolean;
  detail: string;
  /** A Debian package whose installation fixes this check. */
  aptPackage?: string;
  /** A command (as root) that fixes this check when no package does. */
  fixCommand?: string;
}

/** What the facts mean, one check per requirement, in the order a person would fix them. */
export function evaluateHost(facts: HostFacts): HostCheck[] {
  const checks: HostCheck[] = [];
  for (const [command, pkg] of Object.entries(HOST_COMMANDS)) {
    const ok = facts.commands[command] === true;
    checks.push({
      id: `command:${command}`,
      ok,
      detail: ok ? `${command} found` : `${command} not found (package ${pkg})`,
      aptPackage: ok ? undefined : pkg,
    });
  }
  const b = facts.binfmt;
  checks.push({
    id: 'binfmt-mounted',
    ok: b.mounted,
    detail: b.mounted ? 'binfmt_misc is mounted' : 'binfmt_misc is not mounted',
    fixCommand: b.mounted ? undefined : 'mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc',
  });
  const binfmtOk = b.registered && b.enabled && b.fixBinary;
  checks.push({
    id: 'binfmt-riscv64',
    ok: binfmtOk,
    detail: binfmtOk
      ? `riscv64 binaries run through ${b.interpreter} (flags ${b.flags})`
      : !b.registered
        ? 'no binfmt_misc entry for riscv64'
        : !b.enabled
          ? 'the riscv64 binfmt_misc entry is disabled'
          : `the riscv64 binfmt_misc entry lacks the F flag (flags "${b.flags}"), so it fails inside a chroot`,
    fixCommand: binfmtOk ? undefined : `update-binfmts --enable ${RISCV64_BINFMT}`,
  });
  checks.push({
    id: 'overlayfs',
    ok: facts.overlayfs,
    detail: facts.overlayfs ? 'overlayfs available' : 'overlayfs is not available',
    fixCommand: facts.overlayfs ? undefined : 'modprobe overlay',
  });
  checks.push({
    id: 'subordinate-ids',
    ok: facts.subordinateIds,
    detail: facts.subordinateIds
      ? `${facts.user} has 65536 subordinate user and group ids (root inside a sandbox is one of them)`
      : `${facts.user} has no range of 65536 subordinate ids in /etc/subuid and /etc/subgid`,
    fixCommand: facts.subordinateIds ? undefined : subordinateIdsFix(facts.user),
  });
  checks.push({
    id: 'namespaces',
    ok: facts.namespaces,
    detail: facts.namespaces
      ? 'user, mount, PID and network namespaces work'
      : 'cannot create a user namespace mapped to the subordinate ids with mount, PID and network namespaces (unshare failed)',
    fixCommand: facts.namespaces
      ? undefined
      : 'sysctl -w kernel.unprivileged_userns_clone=1 user.max_user_namespaces=15000',
  });
  // Root is needed only to change the machine: installing packages and registering binfmt_misc.
  const needsRoot = checks.some((c) => !c.ok);
  checks.unshift({
    id: 'root',
    ok: facts.isRoot || !needsRoot,
    detail: facts.isRoot
      ? 'running as root'
      : needsRoot
        ? `running as ${facts.user}: what is missing needs root to install or register`
        : `running as ${facts.user} (sandboxes run in user namespaces; no root needed)`,
    fixCommand:
      facts.isRoot || !needsRoot ? undefined : 'run the commands below as root (e.g. with sudo), once',
  });
  return checks;
}

/** The shell commands that fix the failed checks, in order (for people without root, or a log). */
export function fixCommands(checks: readonly HostCheck[]): string[] {
  const failed = checks.filter((c) => !c.ok);
  const packages = [...new Set(failed.flatMap((c) => (c.aptPackage ? [c.aptPackage] : [])))];
  const commands: string[] = [];
  for (const c of failed) if (c.id === 'root' && c.fixCommand) commands.push(c.fixCommand);
  if (packages.length > 0) commands.push(`apt-get install -y ${packages.join(' ')}`);
  for (const c of failed) if (c.id !== 'root' && c.fixCommand) commands.push(c.fixCommand);
  return commands;
}

async function onPath(command: string, pathVar: string): Promise<boolean> {
  const dirs = [...pathVar.split(delimiter), '/usr/sbin', '/sbin', '/usr/bin', '/bin'].filter(Boolean);
  for (const dir of new Set(dirs)) {
    try {
      await access(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // keep looking
    }
  }
  return false;
}

/** Gathers the facts about this machine; only reads, except for a throwaway `unshare` probe. */
export async function probeHost(env: NodeJS.ProcessEnv = process.env): Promise<HostFacts> {
  const pathVar = env.PATH ?? '';
  const commands: Record<string, boolean> = {};
  for (const command of Object.keys(HOST_COMMANDS)) commands[command] = await onPath(command, pathVar);
  const filesystems = await readFile('/proc/filesystems', 'utf8').catch(() => '');
  let overlayfs = /\boverlay\b/.test(filesystems);
  const isRoot = process.getuid?.() === 0;
  if (!overlayfs && isRoot) {
    // The module may simply not be loaded yet.
    await runProcess({ command: ['modprobe', 'overlay'], timeoutMs: 10_000 }).catch(() => undefined);
    overlayfs = /\boverlay\b/.test(await readFile('/proc/filesystems', 'utf8').catch(() => ''));
  }
  let ids: SubordinateIds | undefined;
  try {
    ids = readSubordinateIds();
  } catch {
    ids = undefined;
  }
  let namespaces = false;
  if (ids && commands.unshare && commands.newuidmap) {
    const probe = await runProcess({
      command: ['unshare', ...sandboxUserArgs(ids), '--mount', '--pid', '--net', '--fork', '--', 'true'],
      timeoutMs: 10_000,
    }).catch(() => undefined);
    namespaces = probe?.exitCode === 0;
  }
  return {
    user: currentIdOwner().name,
    subordinateIds: ids !== undefined,
    isRoot,
    hasApt: await onPath('apt-get', pathVar),
    commands,
    binfmt: await readBinfmtStatus(),
    overlayfs,
    namespaces,
  };
}
