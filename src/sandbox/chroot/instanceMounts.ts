import { shellQuote } from '../../process/shellQuote.ts';
import { registrationLine } from '../emulator/binfmtRegistration.ts';
import type { CgroupPlacement } from '../limits/cgroupLimits.ts';
import { bindViewLines, ENTER_FD, openViewScript, viewPath, viewsHolding } from '../userns/namespaceView.ts';
import type { SubordinateIds } from '../userns/subordinateIds.ts';
import { sandboxUserArgs } from '../userns/userNamespace.ts';
import { capabilityList } from './enterProgram.ts';

/** Everything needed to assemble one instance's root for one command. */
export interface InstanceMounts {
  /**
   * The host folders (no links in their paths) that hold every other path below: each layer's
   * tree, the tools tree, the instance's folder (an image may be a link to another home's).
   * Each is opened before ids drop to the subordinate range and bound at /tmp/vN in the
   * command's private mount namespace, so they are reachable even under a home folder the range
   * may not enter (mode 0700).
   */
  viewRoots: readonly string[];
  /**
   * The host path of the entry program (enterProgram.ts): opened before the ids change and run
   * as the instance's first process, it pivots into the overlay, drops the capabilities and
   * starts the command. Nothing of the instance runs before it has.
   */
  enterProgram: string;
  /** Read-only layers, topmost first (the accelerated layer above the rootfs). */
  lowerDirs: readonly string[];
  upperDir: string;
  workDir: string;
  /** Empty host directory where the overlay is mounted (inside a private mount namespace). */
  mergedDir: string;
  /** Host directory that appears at /build. */
  workspace: string;
  /** Host tree bind-mounted read-only at /native (accelerated mode). */
  nativeTree?: string;
  /**
   * The host path (inside a view root) of the riscv64 emulator that the instance's own
   * binfmt_misc registers (emulator/binfmtRegistration.ts); without it, riscv64 programs run under
   * the host's registration.
   */
  emulator?: string;
  /**
   * The host's network namespace (with a read-only resolv.conf); otherwise an empty one. Only
   * for a person's interactive `sandbox exec --network`: no build command ever gets it.
   */
  network: boolean;
  /** Host ids that are 0…65535 inside. */
  ids: SubordinateIds;
  /** Size limits of the memory-backed mounts. */
  tmpfs?: TmpfsLimits;
  /** cgroups the command's first process joins before anything else runs (memory, pids). */
  cgroups?: CgroupPlacement;
  /**
   * Only for rvport's own copies in and out: host folders bound at `TRANSFER_IN` (read-only)
   * and `TRANSFER_OUT`. Build commands never see them.
   */
  transfer?: { in: string; out: string };
}

/** Where a transfer's folders appear inside. */
export const TRANSFER_IN = '/run/rvport-in';
export const TRANSFER_OUT = '/run/rvport-out';

export interface TmpfsLimits {
  /** /tmp inside. */
  tmp: string;
  /** /dev/shm inside. */
  shm: string;
}

/** tmpfs sizes (tmpfs counts against memory only for what is written). */
export const DEFAULT_TMPFS_LIMITS: TmpfsLimits = { tmp: '4g', shm: '512m' };

/**
 * Capabilities kept by commands inside, all of them only over the namespace's own ids: enough
 * for dpkg, apt and `make install` as root; not for mounting, chroot or raw I/O, so a build
 * cannot take apart what the setup assembled.
 */
export const KEPT_CAPABILITIES: readonly string[] = [
  'chown',
  'dac_override',
  'dac_read_search',
  'fowner',
  'fsetid',
  'kill',
  'setgid',
  'setuid',
  'setfcap',
  'net_bind_service',
  'audit_write',
];

/** How a failure to assemble the instance shows (exit status and a line on stderr). */
export const SETUP_FAILED_EXIT = 125;
export const SETUP_FAILED_MARK = 'rvport-sandbox: could not assemble the instance';

/** Paths inside that the assembly mounts on or writes to (none may be a link). */
function assemblyPaths(m: InstanceMounts): string[] {
  return [
    'proc',
    'dev',
    'tmp',
    'build',
    ...(m.nativeTree ? ['native'] : []),
    ...(m.transfer ? ['run', TRANSFER_IN.slice(1), TRANSFER_OUT.slice(1)] : []),
    ...(m.network ? ['etc', 'etc/resolv.conf'] : []),
  ];
}

const DEVICES = ['null', 'zero', 'full', 'random', 'urandom', 'tty'];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Overlay options are comma-separated and lowerdir is colon-separated: such paths cannot be named. */
export function assertMountablePath(path: string): void {
  if (/[,:\s\\]/.test(path)) {
    throw new Error(`path not usable in an overlay mount (comma, colon, space or backslash): ${path}`);
  }
}

/**
 * The script that runs as root of the user namespace (the subordinate range's first id) and PID 1
 * of fresh mount, PID, IPC, UTS (and, unless network is asked for, network) namespaces: it mounts
 * the overlay and the pseudo-filesystems with the host's programs, then execs the entry program
 * (descriptor 9, opened on the host side), which pivots into the overlay, detaches every host
 * path, drops to the kept capabilities with no_new_privs and a seccomp filter, and starts the
 * command with an environment that only it sees. Only the image views are read-only; all mounts
 * die with the namespace, so a killed run leaves none behind. Arguments: $1 the working directory
 * inside, then NAME=VALUE assignments, then the command's argv.
 */
export function instanceEnterScript(m: InstanceMounts): string {
  for (const p of [...m.lowerDirs, m.upperDir, m.workDir, m.mergedDir]) assertMountablePath(p);
  const v = (p: string) => viewPath(m.viewRoots, p);
  const q = shellQuote;
  const M = q(v(m.mergedDir));
  const tmpfs = m.tmpfs ?? DEFAULT_TMPFS_LIMITS;
  const overlay = `lowerdir=${m.lowerDirs.map(v).join(':')},upperdir=${v(m.upperDir)},workdir=${v(m.workDir)}`;
  const lines = [
    'set -e',
    // any failure before the final exec is the sandbox's, not the command's
    `trap 'echo "${SETUP_FAILED_MARK}" >&2; exit ${SETUP_FAILED_EXIT}' EXIT`,
    'cwd=$1; shift',
    // the open folders become the view, and their descriptors are closed before anything else runs
    ...bindViewLines(m.viewRoots.length, writableViews(m)),
    `mount -t overlay overlay -o ${q(`nodev,userxattr,${overlay}`)} ${M}`,
    // the host's tree is still the root here: a link the build left where a mount or a file of
    // the assembly goes would be followed to the host, so any such link refuses the instance
    `for p in ${assemblyPaths(m).join(' ')}; do if [ -L ${M}/$p ]; then echo "rvport-sandbox: /$p is a link" >&2; exit 1; fi; done`,
    `mount -t proc -o nosuid,nodev,noexec proc ${M}/proc`,
    // root inside may write to its own files; it must not retune the kernel it shares
    `mount --bind ${M}/proc/sys ${M}/proc/sys`,
    `mount -o remount,bind,ro ${M}/proc/sys`,
    `if [ -e ${M}/proc/sysrq-trigger ]; then mount --bind /dev/null ${M}/proc/sysrq-trigger; fi`,
    ...emulatorLines(m, M),
    `mount -t tmpfs -o nosuid,noexec,mode=0755,size=16m devtmp ${M}/dev`,
    `for d in ${DEVICES.join(' ')}; do : > ${M}/dev/$d; mount --bind /dev/$d ${M}/dev/$d; done`,
    `mkdir ${M}/dev/pts ${M}/dev/shm`,
    `mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts ${M}/dev/pts`,
    `ln -s pts/ptmx ${M}/dev/ptmx`,
    `mount -t tmpfs -o nosuid,nodev,mode=1777,size=${tmpfs.shm} shm ${M}/dev/shm`,
    `ln -s /proc/self/fd ${M}/dev/fd`,
    `for n in 0:stdin 1:stdout 2:stderr; do ln -s /proc/self/fd/\${n%%:*} ${M}/dev/\${n#*:}; done`,
    `mount -t tmpfs -o nosuid,nodev,mode=1777,size=${tmpfs.tmp} tmp ${M}/tmp`,
    `[ -d ${M}/build ] || mkdir -p ${M}/build`,
    `mount --bind -o nosuid,nodev ${q(v(m.workspace))} ${M}/build`,
    `mount -o remount,bind,nosuid,nodev ${M}/build`,
  ];
  if (m.nativeTree) {
    lines.push(
      `[ -d ${M}/native ] || mkdir -p ${M}/native`,
      `mount --bind ${q(v(m.nativeTree))} ${M}/native`,
      `mount -o remount,bind,ro,nosuid,nodev ${M}/native`,
    );
  }
  if (m.transfer) {
    lines.push(
      `mkdir -p ${M}${TRANSFER_IN} ${M}${TRANSFER_OUT}`,
      `mount --bind ${q(v(m.transfer.in))} ${M}${TRANSFER_IN}`,
      `mount -o remount,bind,ro,nosuid,nodev ${M}${TRANSFER_IN}`,
      `mount --bind ${q(v(m.transfer.out))} ${M}${TRANSFER_OUT}`,
      `mount -o remount,bind,nosuid,nodev ${M}${TRANSFER_OUT}`,
    );
  }
  if (!m.network) {
    // an empty network namespace, but with loopback up: test suites talk to themselves over it
    lines.push('if command -v ip >/dev/null 2>&1; then ip link set lo up; fi');
  } else {
    lines.push(
      `if [ -e /etc/resolv.conf ]; then rm -f ${M}/etc/resolv.conf; : > ${M}/etc/resolv.conf; mount --bind /etc/resolv.conf ${M}/etc/resolv.conf; mount -o remount,bind,ro ${M}/etc/resolv.conf; fi`,
    );
  }
  lines.push(
    'trap - EXIT',
    `exec /proc/self/fd/${ENTER_FD} ${M} "$cwd" ${capabilityList(KEPT_CAPABILITIES)} "$@"`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * The instance's own binfmt_misc (Linux 6.7 and later mount one per user namespace) with the
 * images' emulator registered, then made read-only: a build can neither register an interpreter
 * nor switch this one off, and the host's registrations do not apply inside.
 */
function emulatorLines(m: InstanceMounts, M: string): string[] {
  if (!m.emulator) return [];
  const binfmt = `${M}/proc/sys/fs/binfmt_misc`;
  return [
    `mount -t binfmt_misc -o nosuid,nodev,noexec binfmt_misc ${binfmt}`,
    `printf '%s' ${shellQuote(registrationLine(viewPath(m.viewRoots, m.emulator)))} > ${binfmt}/register`,
    `mount -o remount,bind,ro,nosuid,nodev,noexec ${binfmt}`,
  ];
}

/** The views an instance writes: the one of its own folder (upper, work, workspace, transfer). */
function writableViews(m: InstanceMounts): Set<number> {
  const written = [m.upperDir, m.workDir, m.mergedDir, m.workspace, ...(m.transfer ? [m.transfer.out] : [])];
  return viewsHolding(m.viewRoots, written);
}

/** The host argv that runs `command` inside the instance with `env` as its whole environment. */
export function instanceCommand(
  m: InstanceMounts,
  cwd: string,
  command: readonly string[],
  env: Readonly<Record<string, string>> = {},
): string[] {
  if (command[0]?.includes('=')) {
    throw new Error(`a program name may not contain "=": ${command[0]}`);
  }
  const assignments = Object.entries(env).map(([name, value]) => {
    if (!ENV_NAME.test(name)) throw new Error(`not an environment variable name: ${JSON.stringify(name)}`);
    return `${name}=${value}`;
  });
  const namespaces = [
    ...sandboxUserArgs(m.ids),
    '--mount',
    '--pid',
    '--fork',
    '--kill-child',
    '--propagation',
    'private',
    '--ipc',
    '--uts',
  ];
  if (!m.network) namespaces.push('--net');
  // --pdeathsig: if rvport dies, so does the namespace (and every process and mount in it)
  const argv = [
    'setpriv',
    '--pdeathsig',
    'KILL',
    'unshare',
    ...namespaces,
    '--',
    '/bin/sh',
    '-c',
    openViewScript(m.viewRoots.length, { failed: SETUP_FAILED_MARK, exit: SETUP_FAILED_EXIT }, true),
    'rvport-view',
    ...m.viewRoots,
    m.enterProgram,
    instanceEnterScript(m),
    cwd,
    ...assignments,
    ...command,
  ];
  return m.cgroups ? [...m.cgroups.joinArgv, ...argv] : argv;
}
