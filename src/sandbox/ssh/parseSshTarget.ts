import { SandboxError } from '../errors.ts';

/** A remote riscv64 machine reached with the host's OpenSSH client. */
export interface SshTarget {
  user: string;
  host: string;
  port: number;
  /** `ssh://user@host:port`, normalized; names the target in messages and in the target list. */
  url: string;
  /** How known_hosts names the host (`host`, or `[host]:port` off port 22). */
  knownHostsName: string;
}

const USER = /^[a-z_][a-z0-9_.-]{0,31}$/i;
// a DNS name or an IPv4 address; an IPv6 address goes in brackets
const HOSTNAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*$/i;
const IPV6 = /^[0-9a-f:.]+$/i;

/**
 * `ssh://user@host[:port]` → its parts. Strict on purpose: every part ends up in an argv of the
 * host's ssh, so a user or host that could read as an option (`-oProxyCommand=…`), carry a
 * path, a query or a password is refused rather than passed on.
 */
export function parseSshTarget(text: string): SshTarget {
  const bad = (why: string) =>
    new SandboxError('bad-target', `not an SSH target (${why}): ${JSON.stringify(text.slice(0, 200))}`, {
      fix: 'use ssh://user@host[:port]',
    });
  const match = /^ssh:\/\/([^@/?#\s]+)@(\[[^\]/?#\s]+\]|[^:/?#\s[\]]+)(?::(\d{1,5}))?\/?$/.exec(text);
  if (!match) throw bad('expected ssh://user@host[:port]');
  const [, user = '', rawHost = '', rawPort] = match;
  if (user.includes(':')) throw bad('a password has no place in the target; use a key');
  if (!USER.test(user)) throw bad(`user ${JSON.stringify(user)}`);
  const bracketed = rawHost.startsWith('[');
  const host = bracketed ? rawHost.slice(1, -1) : rawHost;
  if (bracketed ? !IPV6.test(host) || !host.includes(':') : !HOSTNAME.test(host))
    throw bad(`host ${JSON.stringify(host)}`);
  const port = rawPort === undefined ? 22 : Number(rawPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw bad(`port ${rawPort}`);
  const shown = bracketed ? `[${host}]` : host;
  return {
    user,
    host,
    port,
    url: `ssh://${user}@${shown}${port === 22 ? '' : `:${port}`}`,
    knownHostsName: port === 22 ? host : `[${host}]:${port}`,
  };
}

/** Whether a `--target` value names an SSH URL (anything else is a target's name). */
export function isSshUrl(text: string): boolean {
  return text.startsWith('ssh://');
}
