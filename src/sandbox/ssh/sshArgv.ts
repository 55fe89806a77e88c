import type { SshTarget } from './parseSshTarget.ts';

export interface SshClientFiles {
  /** rvport's own known_hosts: the only file whose keys are trusted. */
  knownHosts: string;
  /** The private key to log in with; absent: OpenSSH's default key files (never an agent). */
  identity?: string;
}

/** Seconds to wait for the TCP connection and the key exchange. */
export const SSH_CONNECT_TIMEOUT_S = 20;

/**
 * The options every ssh run of rvport has. `-F /dev/null` first: neither ~/.ssh/config nor
 * /etc/ssh/ssh_config can add a ProxyCommand, a forwarding or another known_hosts. Then: never a
 * prompt (BatchMode; no password or keyboard-interactive), only rvport's known_hosts and no
 * trust on first use (StrictHostKeyChecking=yes, nothing learnt or rewritten), only the named
 * key (IdentitiesOnly, no agent), no agent, X11 or port forwarding, no terminal, no escape
 * character, no local command. ControlMaster is off: a command's connection is its lifetime, so
 * killing the local ssh on a time limit also ends the remote session (and, measured against the
 * loopback stand-in on a loaded machine, a shared connection saved nothing: ~0.7 s either way).
 */
export function sshOptions(files: SshClientFiles): string[] {
  const options: Record<string, string> = {
    BatchMode: 'yes',
    StrictHostKeyChecking: 'yes',
    UserKnownHostsFile: files.knownHosts,
    GlobalKnownHostsFile: '/dev/null',
    UpdateHostKeys: 'no',
    HashKnownHosts: 'no',
    CheckHostIP: 'no',
    PasswordAuthentication: 'no',
    KbdInteractiveAuthentication: 'no',
    PubkeyAuthentication: 'yes',
    IdentitiesOnly: 'yes',
    IdentityAgent: 'none',
    ...(files.identity ? { IdentityFile: files.identity } : {}),
    ForwardAgent: 'no',
    ForwardX11: 'no',
    ClearAllForwardings: 'yes',
    PermitLocalCommand: 'no',
    RequestTTY: 'no',
    EscapeChar: 'none',
    ControlMaster: 'no',
    ControlPath: 'none',
    ConnectTimeout: String(SSH_CONNECT_TIMEOUT_S),
    ServerAliveInterval: '15',
    ServerAliveCountMax: '4',
    LogLevel: 'ERROR',
  };
  return ['-F', '/dev/null', ...Object.entries(options).flatMap(([k, v]) => ['-o', `${k}=${v}`])];
}

/** The argv that runs `remoteCommand` (one string, parsed by the remote login shell) on `target`. */
export function sshArgv(target: SshTarget, files: SshClientFiles, remoteCommand: string): string[] {
  return [
    'ssh',
    ...sshOptions(files),
    '-T',
    '-p',
    String(target.port),
    '-l',
    target.user,
    '--',
    target.host,
    remoteCommand,
  ];
}

/** The environment of every ssh process: nothing of rvport's (no SSH_AUTH_SOCK, no DISPLAY). */
export const SSH_ENV: Readonly<Record<string, string>> = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  LANG: 'C.UTF-8',
};

/** Single-quotes a word for the remote POSIX shell. */
export function remoteQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
