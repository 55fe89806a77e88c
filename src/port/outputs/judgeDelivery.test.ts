import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ArtifactRecord } from '../state/PortState.ts';
import type { ArtifactCopies } from './copyArtifactsOut.ts';
import { judgeDelivery } from './judgeDelivery.ts';

const fixture = (name: string) => new URL(`../../verify/fixtures/${name}`, import.meta.url).pathname;
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const base = mkdtempSync(join(tmpdir(), 'rvport-delivery-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const VERIFIED = { verdict: 'verified' as const, reason: '2 riscv64 files' };
const artifact = (path: string, sha256?: string): ArtifactRecord => ({
  path,
  role: 'program',
  machine: 'riscv64',
  bits: 64,
  endian: 'little',
  type: 'executable',
  abi: null,
  interpreter: null,
  linkage: null,
  rank: 0,
  ...(sha256 ? { sha256 } : {}),
});

/** OUT/artifacts as copyArtifactsOut left it: `files` maps each artifact to the fixture copied. */
function delivered(name: string, files: Record<string, string>): { target: string; copies: ArtifactCopies } {
  const target = join(base, name);
  const copies: ArtifactCopies = {
    copied: [],
    refused: [],
    bytes: 0,
    limits: { fileBytes: 1 << 30, totalBytes: 2 ** 31 },
  };
  for (const [path, from] of Object.entries(files)) {
    const dest = join(target, path);
    mkdirSync(join(dest, '..'), { recursive: true });
    if (from.startsWith('#!')) writeFileSync(dest, from);
    else copyFileSync(fixture(from), dest);
    const bytes = readFileSync(dest).length;
    copies.copied.push({ path, sha256: sha(dest), bytes });
    copies.bytes += bytes;
  }
  return { target, copies };
}

describe('judgeDelivery', () => {
  it('keeps the verdict of copies that are the bytes verified', async () => {
    const { target, copies } = delivered('same', { 'bin/hello': 'riscv64-exe' });
    const judged = await judgeDelivery(
      target,
      [artifact('bin/hello', sha(fixture('riscv64-exe')))],
      copies,
      VERIFIED,
    );
    expect(judged.verification).toEqual(VERIFIED);
    expect(judged.delivery).toMatchObject({ delivered: ['bin/hello'], reverified: [], refused: [] });
  });

  it('refuses a copy swapped for an x86_64 program or a script after verification, and removes it', async () => {
    const { target, copies } = delivered('swapped', {
      'bin/hello': 'x86_64-exe',
      'bin/tool': '#!/bin/sh\necho not riscv64\n',
      'DESTDIR/usr/lib/libok.so': 'riscv64-lib.so',
    });
    const recorded = sha(fixture('riscv64-exe'));
    const judged = await judgeDelivery(
      target,
      [
        artifact('bin/hello', recorded),
        artifact('bin/tool', recorded),
        artifact('DESTDIR/usr/lib/libok.so', sha(fixture('riscv64-lib.so'))),
      ],
      copies,
      VERIFIED,
    );
    expect(judged.verification?.verdict).toBe('not_verified');
    expect(judged.verification?.reason).toMatch(
      /^the delivered artifacts are not the ones verified: bin\/hello refused: it changed after verification and is x86_64 64-bit now, not riscv64/,
    );
    expect(judged.verification?.reason).toMatch(
      /bin\/tool refused: it changed after verification and is not an ELF file now/,
    );
    expect(judged.delivery.delivered).toEqual(['DESTDIR/usr/lib/libok.so']);
    expect(judged.delivery.refused.map((r) => [r.path, r.changed])).toEqual([
      ['bin/hello', true],
      ['bin/tool', true],
    ]);
    expect(existsSync(join(target, 'bin', 'hello'))).toBe(false);
    expect(existsSync(join(target, 'bin', 'tool'))).toBe(false);
    expect(judged.delivery.bytes).toBe(readFileSync(fixture('riscv64-lib.so')).length);
  });

  it('verifies again a copy that changed but is still riscv64 (a rebuild after a resume), and says so', async () => {
    const { target, copies } = delivered('rebuilt', {
      'bin/hello': 'riscv64-static',
      'lib/libx.a': 'riscv64-lib.a',
    });
    const judged = await judgeDelivery(
      target,
      [artifact('bin/hello', sha(fixture('riscv64-exe'))), artifact('lib/libx.a')],
      copies,
      VERIFIED,
    );
    expect(judged.verification).toEqual({
      verdict: 'verified',
      reason:
        '2 riscv64 files; bin/hello, lib/libx.a changed after verification and were verified again on the copy delivered',
    });
    expect(judged.delivery.reverified).toEqual(['bin/hello', 'lib/libx.a']);
  });

  it('refuses an archive that gained a member of another machine', async () => {
    const { target, copies } = delivered('mixed', { 'lib/libx.a': 'mixed.a' });
    const judged = await judgeDelivery(
      target,
      [artifact('lib/libx.a', sha(fixture('riscv64-lib.a')))],
      copies,
      VERIFIED,
    );
    expect(judged.verification?.verdict).toBe('not_verified');
    expect(judged.verification?.reason).toMatch(
      /lib\/libx\.a refused: it changed after verification and is \S+ \d+-bit now/,
    );
  });

  it('a file refused because it changed is a refusal of the verdict; one over the limit unchanged is a note', async () => {
    const { target, copies } = delivered('refused', { 'bin/hello': 'riscv64-exe' });
    copies.refused.push(
      { path: 'bin/padded', reason: '3221225472 bytes (apparent size), over the limit', changed: true },
      { path: 'lib/libbig.so', reason: 'over the total limit', changed: false },
    );
    const hello = artifact('bin/hello', sha(fixture('riscv64-exe')));
    const judged = await judgeDelivery(target, [hello], copies, VERIFIED);
    expect(judged.verification?.verdict).toBe('not_verified');
    expect(judged.verification?.reason).toMatch(/bin\/padded refused: 3221225472 bytes \(apparent size\)/);
    const onlyLimit = { ...copies, refused: [copies.refused[1] as ArtifactCopies['refused'][number]] };
    const kept = await judgeDelivery(target, [hello], onlyLimit, VERIFIED);
    expect(kept.verification).toEqual({
      verdict: 'verified',
      reason: '2 riscv64 files; not delivered: lib/libbig.so: over the total limit',
    });
  });

  it('never makes a port verified that was not, and a port that delivered nothing is not verified', async () => {
    const { target, copies } = delivered('none', {});
    const notVerified = { verdict: 'not_verified' as const, reason: 'no riscv64 ELF file found' };
    expect((await judgeDelivery(target, [], copies, notVerified)).verification).toEqual(notVerified);
    expect((await judgeDelivery(target, [], copies, VERIFIED)).verification).toEqual(VERIFIED);
    const refusedAll = {
      ...copies,
      refused: [{ path: 'bin/x', reason: 'over the total limit', changed: false }],
    };
    expect((await judgeDelivery(target, [], refusedAll, VERIFIED)).verification).toMatchObject({
      verdict: 'not_verified',
      reason: expect.stringMatching(/^no verified artifact was delivered/),
    });
  });
});
