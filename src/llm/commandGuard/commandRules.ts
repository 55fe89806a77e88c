/** The word lists behind the command guard, kept apart from the logic that applies them. */

/** Commands that reach past the sandbox's namespaces, root file system or kernel. */
export const ESCAPE_COMMANDS: Readonly<Record<string, string>> = {
  mount: 'mounts file systems',
  umount: 'unmounts file systems',
  chroot: 'changes the root directory',
  unshare: 'creates namespaces',
  nsenter: 'enters other namespaces',
  pivot_root: 'changes the root file system',
  switch_root: 'changes the root file system',
  losetup: 'attaches loop devices',
  mknod: 'creates device nodes',
  insmod: 'loads kernel modules',
  rmmod: 'unloads kernel modules',
  modprobe: 'loads kernel modules',
  kexec: 'replaces the kernel',
  sysctl: 'changes kernel settings',
  reboot: 'reboots the machine',
  shutdown: 'shuts the machine down',
  halt: 'halts the machine',
  poweroff: 'powers the machine off',
  telinit: 'changes the run level',
  systemctl: 'controls host services',
  service: 'controls host services',
  debugfs: 'edits file systems directly',
  fdisk: 'partitions disks',
  parted: 'partitions disks',
  swapon: 'changes swap',
  swapoff: 'changes swap',
  'update-binfmts': 'changes the host binfmt_misc registrations',
  'dpkg-divert': 'changes the toolchain diversions that point at /native',
  docker: 'starts containers',
  bwrap: 'creates namespaces',
  firejail: 'creates namespaces',
  'systemd-run': 'starts host services',
  'systemd-nspawn': 'starts containers',
  proot: 'changes the root directory',
  fakechroot: 'changes the root directory',
  podman: 'starts containers',
  runc: 'starts containers',
  ip: 'changes network configuration',
  ifconfig: 'changes network configuration',
  route: 'changes network configuration',
  iptables: 'changes the firewall',
  nft: 'changes the firewall',
};

export const PRIVILEGE_COMMANDS = new Set(['sudo', 'su', 'doas', 'pkexec', 'runuser', 'setpriv', 'capsh']);

/** Talk to the network by themselves; builds have none (SPEC 1.5). */
export const NETWORK_COMMANDS = new Set([
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'ssh',
  'scp',
  'sftp',
  'telnet',
  'ftp',
  'tftp',
  'lftp',
  'aria2c',
]);

/** Sub-commands of otherwise local tools that download. */
export const NETWORK_SUBCOMMANDS: Readonly<Record<string, ReadonlySet<string>>> = {
  git: new Set(['clone', 'fetch', 'pull', 'push', 'ls-remote', 'submodule', 'remote']),
  svn: new Set(['checkout', 'co', 'update', 'up', 'export']),
  hg: new Set(['clone', 'pull']),
  bzr: new Set(['branch', 'pull', 'checkout']),
  pip: new Set(['install', 'download']),
  pip3: new Set(['install', 'download']),
  npm: new Set(['install', 'i', 'ci', 'add', 'update']),
  pnpm: new Set(['install', 'i', 'add', 'update']),
  yarn: new Set(['install', 'add', 'upgrade']),
  cargo: new Set(['fetch', 'install', 'update']),
  go: new Set(['get', 'install']),
  gem: new Set(['install', 'fetch']),
};

export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'mksh']);

/** Interpreters whose inline code (`-c`, `-e`, an awk program) is scanned for forbidden words. */
export const INTERPRETERS =
  /^(python[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|lua[0-9.]*|tclsh[0-9.]*|g?awk|mawk|nawk)$/;
