import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readElf } from './readElf.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, 'fixtures', name)));

describe('readElf on real files (built by fixtures/make-fixtures.sh with Debian cross compilers)', () => {
  it('reads a riscv64 dynamically linked PIE executable', () => {
    const elf = readElf(fixture('riscv64-exe'));
    expect(elf).toMatchObject({
      ok: true,
      machine: 'riscv64',
      eMachine: 243,
      bits: 64,
      endian: 'little',
      type: 'executable',
      pie: true,
      linkage: 'dynamic',
      interpreter: '/lib/ld-linux-riscv64-lp64d.so.1',
      abi: 'lp64d',
      floatAbi: 'double',
      rvc: true,
    });
  });

  it('reads a riscv64 shared object (no interpreter, not a PIE)', () => {
    expect(readElf(fixture('riscv64-lib.so'))).toMatchObject({
      ok: true,
      machine: 'riscv64',
      type: 'shared',
      pie: false,
      linkage: 'dynamic',
      interpreter: null,
    });
  });

  it('reads a riscv64 static executable', () => {
    expect(readElf(fixture('riscv64-static'))).toMatchObject({
      ok: true,
      machine: 'riscv64',
      type: 'executable',
      pie: false,
      linkage: 'static',
      interpreter: null,
    });
  });

  it('reads a riscv64 static PIE as a static executable', () => {
    expect(readElf(fixture('riscv64-static-pie'))).toMatchObject({
      ok: true,
      type: 'executable',
      pie: true,
      linkage: 'static',
      interpreter: null,
    });
  });

  it('reads the float ABI and RVC from e_flags', () => {
    expect(readElf(fixture('riscv64-norvc.o'))).toMatchObject({
      abi: 'lp64d',
      rvc: false,
      type: 'relocatable',
    });
    expect(readElf(fixture('riscv64-softfloat.o'))).toMatchObject({
      abi: 'lp64',
      floatAbi: 'soft',
      rvc: true,
    });
  });

  it.each([
    ['x86_64.o', 'x86_64', 64, 'lp64'],
    ['aarch64.o', 'aarch64', 64, 'lp64'],
    ['i386.o', 'i386', 32, 'ilp32'],
  ])('reads %s as %s', (name, machine, bits, abi) => {
    const elf = readElf(fixture(name));
    expect(elf).toMatchObject({
      ok: true,
      machine,
      bits,
      abi,
      type: 'relocatable',
      linkage: null,
      rvc: null,
    });
  });

  it('reads an x86_64 executable with its interpreter', () => {
    expect(readElf(fixture('x86_64-exe'))).toMatchObject({
      machine: 'x86_64',
      interpreter: '/lib64/ld-linux-x86-64.so.2',
      linkage: 'dynamic',
    });
  });
});

describe('readElf on damaged input never throws', () => {
  const exe = fixture('riscv64-exe');

  it('reports garbage as not ELF', () => {
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919) % 251);
    expect(readElf(garbage)).toMatchObject({ ok: false, error: 'not_elf' });
    expect(readElf(new Uint8Array(0))).toMatchObject({ ok: false, error: 'not_elf' });
  });

  it('reports every truncation of a real executable as truncated, keeping the header facts', () => {
    for (const length of [4, 10, 16, 40, 63]) {
      expect(readElf(exe.subarray(0, length))).toMatchObject({ ok: false, error: 'truncated' });
    }
    // header complete, program headers cut off: the machine is still known
    const cut = readElf(exe.subarray(0, 100));
    expect(cut).toMatchObject({ ok: false, error: 'truncated', partial: { machine: 'riscv64', bits: 64 } });
    for (let length = 0; length < exe.length; length += 97)
      expect(() => readElf(exe.subarray(0, length))).not.toThrow();
  });

  it('rejects an invalid class and a hostile program header count without looping', () => {
    const badClass = exe.slice();
    badClass[4] = 9;
    expect(readElf(badClass)).toMatchObject({ ok: false, error: 'invalid' });
    const hostile = exe.slice();
    new DataView(hostile.buffer).setUint16(56, 0xffff, true); // e_phnum
    expect(readElf(hostile)).toMatchObject({ ok: false });
    const farOffset = exe.slice();
    new DataView(farOffset.buffer).setBigUint64(32, 0xffffffffffffn, true); // e_phoff
    expect(readElf(farOffset)).toMatchObject({ ok: false, error: 'truncated' });
  });

  it('survives random corruption of a real file', () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let round = 0; round < 500; round++) {
      const bytes = exe.slice();
      for (let k = 0; k < 8; k++) bytes[4 + (random() % 200)] = random() & 0xff;
      expect(() => readElf(bytes)).not.toThrow();
    }
  });
});
