import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ArtifactRecord } from '../state/PortState.ts';
import { copyArtifactsOut, DEFAULT_OUTPUT_LIMITS, MAX_COPIED_ARTIFACTS } from './copyArtifactsOut.ts';

const base = mkdtempSync(join(tmpdir(), 'rvport-copy-artifacts-'));
const workspace = join(base, 'ws');
mkdirSync(join(workspace, 'src', 'bin'), { recursive: true });
mkdirSync(join(workspace, 'dest', 'usr', 'lib'), { recursive: true });
writeFileSync(join(base, 'secret'), 'host secret');
writeFileSync(join(workspace, 'src', 'bin', 'tool'), 'tool');
chmodSync(join(workspace, 'src', 'bin', 'tool'), 0o4755);
writeFileSync(join(workspace, 'dest', 'usr', 'lib', 'libz.so.1'), 'lib');
symlinkSync('libz.so.1', join(workspace, 'dest', 'usr', 'lib', 'libz.so'));
symlinkSync(join(base, 'secret'), join(workspace, 'src', 'bin', 'leak'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const artifact = (path: string, role: ArtifactRecord['role'] = 'program'): ArtifactRecord => ({
  path,
  role,
  machine: 'riscv64',
  bits: 64,
  endian: 'little',
  type: 'executable',
  abi: null,
  interpreter: null,
  linkage: null,
  rank: 0,
});

describe('copyArtifactsOut', () => {
  it('copies programs and libraries from src/ and DESTDIR/ as plain files, skipping refused ones', async () => {
    const target = join(base, 'out', 'artifacts');
    const notes: string[] = [];
    const copied = await copyArtifactsOut(
      workspace,
      target,
      [
        artifact('bin/tool'),
        artifact('DESTDIR/usr/lib/libz.so', 'shared-library'),
        artifact('bin/leak'),
        artifact('bin/tool.o', 'object'),
      ],
      (n) => notes.push(n),
    );
    expect(copied.copied.map((c) => c.path)).toEqual(['bin/tool', 'DESTDIR/usr/lib/libz.so']);
    expect(copied.bytes).toBe(7);
    expect(copied.refused).toEqual([
      { path: 'bin/leak', reason: expect.stringMatching(/leads outside the tree/), changed: true },
    ]);
    expect(lstatSync(join(target, 'bin', 'tool')).mode & 0o7777).toBe(0o755);
    expect(lstatSync(join(target, 'DESTDIR', 'usr', 'lib', 'libz.so')).isFile()).toBe(true);
    expect(readFileSync(join(target, 'DESTDIR', 'usr', 'lib', 'libz.so'), 'utf8')).toBe('lib');
    expect(notes).toEqual([
      expect.stringMatching(/^artifact bin\/leak not copied: .*leads outside the tree/),
    ]);
  });

  it('copies at most MAX_COPIED_ARTIFACTS', async () => {
    const many = Array.from({ length: MAX_COPIED_ARTIFACTS + 5 }, () => artifact('bin/tool'));
    const copied = await copyArtifactsOut(workspace, join(base, 'out2'), many, () => {});
    expect(copied.copied).toHaveLength(MAX_COPIED_ARTIFACTS);
  });

  it('holds apparent sizes against one limit per file and one for the port, and keeps holes', async () => {
    writeFileSync(join(workspace, 'src', 'bin', 'padded'), 'ELF padded');
    truncateSync(join(workspace, 'src', 'bin', 'padded'), 64 * 1024 * 1024);
    writeFileSync(join(workspace, 'src', 'bin', 'huge'), 'ELF huge');
    truncateSync(join(workspace, 'src', 'bin', 'huge'), 3 * 1024 * 1024 * 1024);
    const target = join(base, 'out3');
    const notes: string[] = [];
    const copies = await copyArtifactsOut(
      workspace,
      target,
      [
        { ...artifact('bin/huge'), size: 8 },
        artifact('bin/padded'),
        artifact('bin/tool'),
        artifact('DESTDIR/usr/lib/libz.so', 'shared-library'),
      ],
      (n) => notes.push(n),
      { fileBytes: DEFAULT_OUTPUT_LIMITS.fileBytes, totalBytes: 64 * 1024 * 1024 + 4 },
    );
    expect(DEFAULT_OUTPUT_LIMITS).toEqual({ fileBytes: 1024 ** 3, totalBytes: 2 * 1024 ** 3 });
    expect(copies.copied.map((c) => c.path)).toEqual(['bin/padded', 'bin/tool']);
    expect(copies.bytes).toBe(64 * 1024 * 1024 + 4);
    expect(copies.refused).toEqual([
      {
        path: 'bin/huge',
        reason:
          '3221225472 bytes (apparent size), over the limit of 1073741824 per artifact (8 bytes when verified: it changed after verification)',
        changed: true,
      },
      {
        path: 'DESTDIR/usr/lib/libz.so',
        reason:
          "3 bytes (apparent size) would take the port's artifacts past their limit of 67108868 bytes together",
        changed: false,
      },
    ]);
    expect(notes).toHaveLength(2);
    expect(lstatSync(join(target, 'bin', 'padded')).blocks * 512).toBeLessThan(4 * 1024 * 1024);
    expect(existsSync(join(target, 'bin', 'huge'))).toBe(false);
  });
});
