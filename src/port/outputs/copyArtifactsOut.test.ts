import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ArtifactRecord } from '../PortState.ts';
import { copyArtifactsOut, MAX_COPIED_ARTIFACTS } from './copyArtifactsOut.ts';

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
    expect(copied).toEqual(['bin/tool', 'DESTDIR/usr/lib/libz.so']);
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
    expect(copied).toHaveLength(MAX_COPIED_ARTIFACTS);
  });
});
