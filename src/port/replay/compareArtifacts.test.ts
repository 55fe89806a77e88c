import { describe, expect, it } from 'vitest';
import type { ElfFacts } from '../../verify/index.ts';
import type { ArtifactRecord } from '../state/PortState.ts';
import { artifactsMatch, compareArtifact } from './compareArtifacts.ts';

const record: ArtifactRecord = {
  path: 'DESTDIR/usr/bin/hello',
  machine: 'riscv64',
  bits: 64,
  endian: 'little',
  type: 'executable',
  abi: 'lp64d',
  interpreter: '/lib/ld-linux-riscv64-lp64d.so.1',
  linkage: 'dynamic',
  role: 'program',
  rank: 0,
};

const facts = (over: Partial<ElfFacts> = {}): ElfFacts => ({
  path: record.path,
  kind: 'elf',
  machine: 'riscv64',
  bits: 64,
  endian: 'little',
  type: 'executable',
  abi: 'lp64d',
  interpreter: '/lib/ld-linux-riscv64-lp64d.so.1',
  linkage: 'dynamic',
  pie: true,
  floatAbi: 'double',
  rvc: true,
  error: null,
  ...over,
});

describe('compareArtifact', () => {
  it('matches the same facts, and says whether the bytes are the same', () => {
    const same = compareArtifact(record, facts(), { port: 'a', replay: 'a' });
    expect(same).toMatchObject({ found: true, differences: [], identical: true });
    const rebuilt = compareArtifact(record, facts(), { port: 'a', replay: 'b' });
    expect(rebuilt).toMatchObject({ found: true, differences: [], identical: false });
    expect(artifactsMatch([same, rebuilt])).toBe(true);
    expect(compareArtifact(record, facts(), { port: null, replay: 'b' }).identical).toBeNull();
  });

  it('names each fact that differs, and a missing file', () => {
    const other = compareArtifact(record, facts({ machine: 'x86_64', linkage: 'static' }), {
      port: null,
      replay: 'x',
    });
    expect(other.differences).toEqual(['machine: riscv64 → x86_64', 'linkage: dynamic → static']);
    const missing = compareArtifact(record, facts({ kind: 'unreadable', error: 'ENOENT: no such file' }), {
      port: null,
      replay: null,
    });
    expect(missing).toMatchObject({ found: false, differences: ['ENOENT: no such file'] });
    expect(artifactsMatch([other])).toBe(false);
    expect(artifactsMatch([missing])).toBe(false);
    expect(artifactsMatch([])).toBe(false);
  });
});
