import {
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
import { unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { portState } from '../testing/portStateFixture.ts';
import { writePackageZip } from './writePackageZip.ts';

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'rvport-package-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const artifact = (path: string) => ({
  path,
  role: 'program' as const,
  machine: 'riscv64',
  bits: 64,
  endian: 'little',
  type: 'executable',
  abi: null,
  interpreter: null,
  linkage: null,
  rank: 0,
});

describe('writePackageZip', () => {
  it('streams the files and the delivered artifacts into the zip, nothing refused or linked out', () => {
    mkdirSync(join(work, 'artifacts', 'bin'), { recursive: true });
    writeFileSync(join(work, 'report.md'), '# report\n');
    writeFileSync(join(work, 'artifacts', 'bin', 'hello'), 'riscv64 program');
    // a 32 MiB artifact that is mostly a hole: streamed in chunks, compressed to little
    writeFileSync(join(work, 'artifacts', 'bin', 'big'), 'start');
    truncateSync(join(work, 'artifacts', 'bin', 'big'), 32 * 1024 * 1024);
    writeFileSync(join(work, 'artifacts', 'bin', 'refused'), 'x86_64 program');
    writeFileSync(join(work, 'secret'), 'host secret');
    symlinkSync(join(work, 'secret'), join(work, 'artifacts', 'bin', 'leak'));
    const state = portState({
      source: { spec: '/src/demo', name: 'demo' },
      artifacts: ['bin/hello', 'bin/big', 'bin/refused', 'bin/leak'].map(artifact),
      verification: { verdict: 'verified', reason: '2 riscv64 files' },
      delivery: {
        delivered: ['bin/hello', 'bin/big', 'bin/leak'],
        reverified: [],
        refused: [{ path: 'bin/refused', reason: 'x86_64 now', changed: true }],
        bytes: 32 * 1024 * 1024 + 15,
        limitBytes: 2 ** 31,
      },
    });
    const file = writePackageZip(state, work, ['report.md']);
    expect(file).toBe(join(work, 'demo-riscv64.zip'));
    const zip = readFileSync(file);
    expect(zip.length).toBeLessThan(1024 * 1024);
    const entries = unzipSync(zip);
    expect(Object.keys(entries).sort()).toEqual([
      'artifacts/bin/big',
      'artifacts/bin/hello',
      'manifest.json',
      'report.md',
    ]);
    expect(Buffer.from(entries['artifacts/bin/hello'] ?? []).toString()).toBe('riscv64 program');
    expect(entries['artifacts/bin/big']?.length).toBe(32 * 1024 * 1024);
    const manifest = JSON.parse(Buffer.from(entries['manifest.json'] ?? []).toString());
    expect(manifest.delivery.refused[0].path).toBe('bin/refused');
    expect(manifest.verification.verdict).toBe('verified');
  });
});
