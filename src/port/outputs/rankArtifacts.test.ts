import { describe, expect, it } from 'vitest';
import type { ElfFacts } from '../../verify/inspectFile.ts';
import { rankArtifacts } from './rankArtifacts.ts';

function elf(path: string, type: string, interpreter: string | null = null): ElfFacts {
  return {
    path,
    kind: 'elf',
    machine: 'riscv64',
    bits: 64,
    endian: 'little',
    type,
    abi: 'lp64d',
    interpreter,
    linkage: interpreter ? 'dynamic' : 'static',
    pie: null,
    floatAbi: 'double',
    rvc: true,
    error: null,
  };
}

describe('rankArtifacts', () => {
  it('puts programs first, then libraries, tests, tool leftovers and objects; drops non-ELF files', () => {
    const ld = '/lib/ld-linux-riscv64-lp64d.so.1';
    const files: ElfFacts[] = [
      elf('build/foo.o', 'relocatable'),
      elf('build/CMakeFiles/3.31/CompilerIdC/a.out', 'shared', ld),
      elf('tests/test_parse', 'shared', ld),
      elf('build/libfoo.so.1.2', 'shared'),
      {
        ...elf('build/libfoo.a', 'archive'),
        kind: 'archive',
        members: [elf('build/libfoo.a(foo.o)', 'relocatable')],
      },
      elf('build/foo', 'shared', ld),
      { ...elf('README', 'not_elf'), kind: 'not_elf', machine: null },
    ];
    expect(rankArtifacts(files).map((a) => [a.path, a.role])).toEqual([
      ['build/foo', 'program'],
      ['build/libfoo.so.1.2', 'shared-library'],
      ['build/libfoo.a', 'static-library'],
      ['tests/test_parse', 'test'],
      ['build/CMakeFiles/3.31/CompilerIdC/a.out', 'other'],
      ['build/foo.o', 'object'],
    ]);
  });

  it('takes an archive machine from its members', () => {
    const archive: ElfFacts = {
      ...elf('libz.a', 'archive'),
      kind: 'archive',
      machine: null,
      members: [elf('libz.a(adler32.o)', 'relocatable')],
    };
    expect(rankArtifacts([archive])[0]).toMatchObject({
      machine: 'riscv64',
      bits: 64,
      role: 'static-library',
    });
  });
});
