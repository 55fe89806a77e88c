import { describe, expect, it } from 'vitest';
import { BINFMT_ENTRY, kernelNamespacesBinfmt, registrationLine } from './binfmtRegistration.ts';

describe('registrationLine', () => {
  it('registers riscv64 ELF executables by magic, with the interpreter opened now and argv[0] kept', () => {
    const line = registrationLine('/tmp/v3/qemu-riscv64');
    const [, name, type, offset, magic, mask, interpreter, flags] = line.split(':');
    expect({ name, type, offset, interpreter, flags }).toEqual({
      name: BINFMT_ENTRY,
      type: 'M',
      offset: '',
      interpreter: '/tmp/v3/qemu-riscv64',
      flags: 'FP',
    });
    // what the kernel decodes: ELF64, little-endian, e_machine 243 (EM_RISCV) at bytes 18–19
    const bytes = (escaped: string | undefined) => Buffer.from((escaped ?? '').replaceAll('\\x', ''), 'hex');
    const decoded = bytes(magic);
    expect(decoded.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(decoded[4]).toBe(2);
    expect(decoded.readUInt16LE(18)).toBe(243);
    expect(bytes(mask)).toHaveLength(decoded.length);
  });

  it('refuses an interpreter path the register line cannot carry', () => {
    for (const path of ['qemu', '/a:b/qemu', '/a b/qemu', '/a\\x3a/qemu'])
      expect(() => registrationLine(path)).toThrow(/interpreter path/);
  });
});

describe('kernelNamespacesBinfmt', () => {
  it('is true from Linux 6.7, which mounts binfmt_misc per user namespace', () => {
    expect(kernelNamespacesBinfmt('6.7.0')).toBe(true);
    expect(kernelNamespacesBinfmt('6.18.44-fc-v1300')).toBe(true);
    expect(kernelNamespacesBinfmt('7.0.1')).toBe(true);
    expect(kernelNamespacesBinfmt('6.6.58-amd64')).toBe(false);
    expect(kernelNamespacesBinfmt('6.1.0-28-amd64')).toBe(false);
    expect(kernelNamespacesBinfmt('5.15.0')).toBe(false);
    expect(kernelNamespacesBinfmt('unknown')).toBe(false);
  });
});
