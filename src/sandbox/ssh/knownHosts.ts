import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../fs/index.ts';

/** One public host key: its algorithm and its base64 blob, as known_hosts writes them. */
export interface HostKey {
  type: string;
  blob: string;
}

const KEY_TYPES = new Set([
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'ssh-rsa',
]);

/** `SHA256:…` as `ssh-keygen -l` prints it. */
export function hostKeyFingerprint(key: HostKey): string {
  const digest = createHash('sha256').update(Buffer.from(key.blob, 'base64')).digest('base64');
  return `SHA256:${digest.replace(/=+$/, '')}`;
}

/** A fingerprint as a user may paste it (with or without `SHA256:`), or null when it is not one. */
export function normalizeFingerprint(text: string): string | null {
  const body = text.trim().replace(/^SHA256:/, '');
  return /^[A-Za-z0-9+/]{43}$/.test(body) ? `SHA256:${body}` : null;
}

/** Whether a blob is a well-formed SSH public key of the type it claims (its first field names it). */
function wellFormed(key: HostKey): boolean {
  if (!KEY_TYPES.has(key.type) || !/^[A-Za-z0-9+/]+={0,2}$/.test(key.blob)) return false;
  const raw = Buffer.from(key.blob, 'base64');
  if (raw.length < 4) return false;
  const length = raw.readUInt32BE(0);
  return length === key.type.length && raw.subarray(4, 4 + length).toString('latin1') === key.type;
}

/**
 * The host keys in `ssh-keyscan` (or known_hosts) text for `name`. The text came from the
 * network: a line that names another host, an unknown key type or a blob that is not the key it
 * claims to be is ignored, so nothing but a well-formed key for this name reaches known_hosts.
 */
export function parseHostKeys(text: string, name: string): HostKey[] {
  const keys: HostKey[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 3 || fields[0]?.startsWith('#')) continue;
    const [hosts = '', type = '', blob = ''] = fields;
    if (!hosts.split(',').includes(name)) continue;
    const key = { type, blob };
    if (wellFormed(key) && !keys.some((k) => k.blob === blob)) keys.push(key);
  }
  return keys;
}

/** The keys pinned for `name` in rvport's known_hosts (none when the file does not exist). */
export async function readPinnedKeys(file: string, name: string): Promise<HostKey[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return parseHostKeys(text, name);
}

/** Pins `keys` for `name`: its earlier lines are replaced, every other host's kept. */
export async function pinHostKeys(file: string, name: string, keys: readonly HostKey[]): Promise<void> {
  if (keys.length === 0) throw new Error(`no host key to pin for ${name}`);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const text = await readFile(file, 'utf8').catch(() => '');
  const kept = text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().split(/\s+/)[0]?.split(',').includes(name));
  const added = keys.map((k) => `${name} ${k.type} ${k.blob}`);
  await writeFileAtomic(file, `${[...kept, ...added].join('\n')}\n`);
}
