/** Everything needed to assemble one instance's root for one command. */
export interface InstanceMounts {
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
  /** Network access: the host's network namespace and resolv.conf; otherwise an empty namespace. */
  network: boolean;
}

/**
 * Capabilities kept by commands inside: enough for dpkg, apt and `make install` as root, but not
 * for mounting, chroot, device nodes, modules or raw I/O, so root inside cannot reach the host.
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

const DEVICES = ['null', 'zero', 'full', 'random', 'urandom', 'tty'];

/** Overlay options are comma-separated and lowerdir is colon-separated: such paths cannot be named. */
export function assertMountablePath(path: string): void {
  if (/[,:\s\\]/.test(path)) {
    throw new Error(`path not usable in an overlay mount (comma, colon, space or backslash): ${path}`);
  }
}

/**
 * The host shell script that runs as PID 1 of a fresh mount+PID(+network) namespace: it mounts
 * the overlay and the pseudo-filesystems, then enters the root with a reduced capability set.
 * All mounts die with the namespace, so a killed run leaves none behind. Arguments: $1 the working
 * directory inside, then the command's argv.
 */
export function instanceEnterScript(m: InstanceMounts): string {
  for (const p of [...m.lowerDirs, m.upperDir, m.workDir, m.mergedDir]) assertMountablePath(p);
  const q = shellQuote;
  const M = q(m.mergedDir);
  const lines = [
    'set -e',
    // any failure before the final exec is the sandbox's, not the command's
    `trap 'echo "${SETUP_FAILED_MARK}" >&2; exit ${SETUP_FAILED_EXIT}' EXIT`,
    'cwd=$1; shift',
    `mount -t overlay overlay -o ${q(`lowerdir=${m.lowerDirs.join(':')},upperdir=${m.upperDir},workdir=${m.workDir}`)} ${M}`,
    `mount -t proc -o nosuid,nodev,noexec proc ${M}/proc`,
    // root inside may write to its own files; it must not retune the host kernel
    `mount --bind ${M}/proc/sys ${M}/proc/sys`,
    `mount -o remount,bind,ro ${M}/proc/sys`,
    `if [ -e ${M}/proc/sysrq-trigger ]; then mount --bind /dev/null ${M}/proc/sysrq-trigger; fi`,
    `mount -t tmpfs -o nosuid,mode=0755,size=16m devtmp ${M}/dev`,
    `for d in ${DEVICES.join(' ')}; do : > ${M}/dev/$d; mount --bind /dev/$d ${M}/dev/$d; done`,
    `mkdir ${M}/dev/pts ${M}/dev/shm`,
    `mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts ${M}/dev/pts`,
    `ln -s pts/ptmx ${M}/dev/ptmx`,
    `mount -t tmpfs -o nosuid,nodev,mode=1777 shm ${M}/dev/shm`,
    `ln -s /proc/self/fd ${M}/dev/fd`,
    `for n in 0:stdin 1:stdout 2:stderr; do ln -s /proc/self/fd/\${n%%:*} ${M}/dev/\${n#*:}; done`,
    `mount -t tmpfs -o nosuid,nodev,mode=1777 tmp ${M}/tmp`,
    `[ -d ${M}/build ] || mkdir -p ${M}/build`,
    `mount --bind ${q(m.workspace)} ${M}/build`,
  ];
  if (m.nativeTree) {
    lines.push(
      `[ -d ${M}/native ] || mkdir -p ${M}/native`,
      `mount --bind ${q(m.nativeTree)} ${M}/native`,
      `mount -o remount,bind,ro ${M}/native`,
    );
  }
  if (!m.network) {
    // an empty network namespace, but with loopback up: test suites talk to themselves over it
    lines.push('if command -v ip >/dev/null 2>&1; then ip link set lo up; fi');
  }
  if (m.network) {
    lines.push(
      `if [ -e /etc/resolv.conf ]; then rm -f ${M}/etc/resolv.conf; : > ${M}/etc/resolv.conf; mount --bind /etc/resolv.conf ${M}/etc/resolv.conf; fi`,
    );
  }
  const caps = `-all,${KEPT_CAPABILITIES.map((c) => `+${c}`).join(',')}`;
  lines.push(
    `exec unshare --root=${M} --wd="$cwd" -- /usr/bin/setpriv --inh-caps=-all --bounding-set=${caps} -- "$@"`,
  );
  return `${lines.join('\n')}\n`;
}

/** The host argv that runs `command` inside the instance. */
export function instanceCommand(m: InstanceMounts, cwd: string, command: readonly string[]): string[] {
  const namespaces = [
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
  return [
    'setpriv',
    '--pdeathsig',
    'KILL',
    'unshare',
    ...namespaces,
    '--',
    '/bin/sh',
    '-c',
    instanceEnterScript(m),
    'rvport-sandbox',
    cwd,
    ...command,
  ];
}

export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
