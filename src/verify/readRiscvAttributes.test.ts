import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isaExtensions, readRiscvAttributes } from './readRiscvAttributes.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name));

/** A little-endian ELF64 whose only section (index 1) is a `.riscv.attributes` of `payload`. */
function elfWithAttributes(payload: Uint8Array): Uint8Array {
  const shoff = 64 + payload.length;
  const bytes = new Uint8Array(shoff + 2 * 64);
  const v = new DataView(bytes.buffer);
  bytes.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1], 0);
  v.setUint16(18, 243, true);
  v.setBigUint64(40, BigInt(shoff), true);
  v.setUint16(58, 64, true);
  v.setUint16(60, 2, true);
  bytes.set(payload, 64);
  const s = shoff + 64;
  v.setUint32(s + 4, 0x70000003, true);
  v.setBigUint64(s + 24, 64n, true);
  v.setBigUint64(s + 32, BigInt(payload.length), true);
  return bytes;
}

/** `A`, one `riscv` subsection, one Tag_File with Tag_RISCV_stack_align 16 and the arch string. */
function attributes(arch: string): Uint8Array {
  const text = new TextEncoder();
  const attrs = [4, 16, 5, ...text.encode(arch), 0];
  const fileSub = [1, 0, 0, 0, 0, ...attrs];
  const fileLength = fileSub.length;
  fileSub.splice(1, 4, fileLength & 0xff, (fileLength >> 8) & 0xff, 0, 0);
  const vendor = [...text.encode('riscv'), 0];
  const subLength = 4 + vendor.length + fileSub.length;
  return Uint8Array.from([0x41, subLength & 0xff, (subLength >> 8) & 0xff, 0, 0, ...vendor, ...fileSub]);
}

describe('readRiscvAttributes', () => {
  it('reads Tag_RISCV_arch of real riscv64 outputs (an executable and an object without RVC)', () => {
    const exe = readRiscvAttributes(fixture('riscv64-exe'));
    expect(exe).toMatchObject({
      ok: true,
      arch: expect.stringMatching(/^rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0/),
    });
    if (!exe.ok) throw new Error(exe.reason);
    expect(exe.extensions).toEqual(expect.arrayContaining(['i', 'm', 'a', 'f', 'd', 'c', 'zicsr']));
    expect(exe.extensions).not.toContain('zba');
    const norvc = readRiscvAttributes(fixture('riscv64-norvc.o'));
    if (!norvc.ok) throw new Error(norvc.reason);
    expect(norvc.extensions).not.toContain('c');
  });

  it('shows the bit-manipulation extensions a -march tune recorded', () => {
    const result = readRiscvAttributes(
      elfWithAttributes(attributes('rv64i2p1_m2p0_c2p0_zba1p0_zbb1p0_zbs1p0')),
    );
    expect(result).toEqual({
      ok: true,
      arch: 'rv64i2p1_m2p0_c2p0_zba1p0_zbb1p0_zbs1p0',
      extensions: ['i', 'm', 'c', 'zba', 'zbb', 'zbs'],
      tags: { 4: 16, 5: 'rv64i2p1_m2p0_c2p0_zba1p0_zbb1p0_zbs1p0' },
    });
  });

  it('answers with a reason, never an exception, for files without the section or cut short', () => {
    expect(readRiscvAttributes(fixture('aarch64.o'))).toEqual({
      ok: false,
      reason: 'the file has no .riscv.attributes section',
    });
    const whole = elfWithAttributes(attributes('rv64gc'));
    const cut = whole.slice();
    // the arch string loses its NUL and the subsection claims more bytes than there are
    cut[64 + 1] = 0xff;
    expect(readRiscvAttributes(cut)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/truncated or malformed/),
    });
    expect(readRiscvAttributes(whole.subarray(0, 100))).toMatchObject({ ok: false });
    expect(readRiscvAttributes(new Uint8Array([1, 2, 3]))).toMatchObject({ ok: false });
  });
});

describe('isaExtensions', () => {
  it('expands g and drops versions', () => {
    expect(isaExtensions('rv64gc_zba_zbb_zbs')).toEqual([
      'i',
      'm',
      'a',
      'f',
      'd',
      'zicsr',
      'zifencei',
      'c',
      'zba',
      'zbb',
      'zbs',
    ]);
    expect(isaExtensions('rv64i2p1_zbb1p0')).toEqual(['i', 'zbb']);
    expect(isaExtensions('x86-64')).toEqual([]);
  });
});
