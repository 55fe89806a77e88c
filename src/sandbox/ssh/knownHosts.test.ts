import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  hostKeyFingerprint,
  normalizeFingerprint,
  parseHostKeys,
  pinHostKeys,
  readPinnedKeys,
} from './knownHosts.ts';

/** A real key made by ssh-keygen, and its fingerprint as ssh-keygen prints it. */
async function realKey(): Promise<{ line: string; fingerprint: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'rvport-kh-'));
  const file = join(dir, 'key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
  const line = (await readFile(`${file}.pub`, 'utf8')).trim();
  const fingerprint =
    execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`], { encoding: 'utf8' }).split(
      ' ',
    )[1] ?? '';
  return { line, fingerprint };
}

describe('known hosts', () => {
  it('computes the fingerprint ssh-keygen prints', async () => {
    const { line, fingerprint } = await realKey();
    const [type = '', blob = ''] = line.split(' ');
    expect(hostKeyFingerprint({ type, blob })).toBe(fingerprint);
    expect(normalizeFingerprint(fingerprint.slice('SHA256:'.length))).toBe(fingerprint);
    expect(normalizeFingerprint('MD5:aa:bb')).toBeNull();
  });

  it('keeps only well-formed keys for the named host from scanned text', async () => {
    const { line } = await realKey();
    const [type = '', blob = ''] = line.split(' ');
    const text = [
      `# [127.0.0.1]:2222 SSH-2.0-OpenSSH`,
      `[127.0.0.1]:2222 ${type} ${blob}`,
      `[127.0.0.1]:2222 ${type} ${blob}`,
      `[127.0.0.1]:2222 ssh-rsa ${blob}`, // the blob says ed25519
      `[127.0.0.1]:2222 ssh-dss ${blob}`,
      `[other]:2222 ${type} ${blob}`,
      `[127.0.0.1]:2222 ${type} not*base64`,
      `\u001b]0;owned\u0007 ${type} ${blob}`,
    ].join('\n');
    expect(parseHostKeys(text, '[127.0.0.1]:2222')).toEqual([{ type, blob }]);
  });

  it('pins keys for one host and keeps the others', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvport-kh-'));
    const file = join(dir, 'targets', 'known_hosts');
    const a = (await realKey()).line.split(' ');
    const b = (await realKey()).line.split(' ');
    const keyA = { type: a[0] ?? '', blob: a[1] ?? '' };
    const keyB = { type: b[0] ?? '', blob: b[1] ?? '' };
    expect(await readPinnedKeys(file, 'board')).toEqual([]);
    await pinHostKeys(file, 'board', [keyA]);
    await pinHostKeys(file, '[other]:2200', [keyB]);
    await pinHostKeys(file, 'board', [keyB]);
    expect(await readPinnedKeys(file, 'board')).toEqual([keyB]);
    expect(await readPinnedKeys(file, '[other]:2200')).toEqual([keyB]);
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(2);
  });

  it('is read by ssh-keygen as a known_hosts file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvport-kh-'));
    const file = join(dir, 'known_hosts');
    await writeFile(file, '');
    const [type = '', blob = ''] = (await realKey()).line.split(' ');
    await pinHostKeys(file, '[127.0.0.1]:2222', [{ type, blob }]);
    const found = execFileSync('ssh-keygen', ['-F', '[127.0.0.1]:2222', '-f', file], { encoding: 'utf8' });
    expect(found).toContain(blob);
  });
});
