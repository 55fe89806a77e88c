import { describe, expect, it } from 'vitest';
import { parseQemuVersion } from './hostQemuVersion.ts';

describe('parseQemuVersion', () => {
  it('reads the version qemu-riscv64-static --version prints on this machine', () => {
    expect(
      parseQemuVersion(
        'qemu-riscv64 version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)\nCopyright (c) 2003-2022 Fabrice Bellard and the QEMU Project developers\n',
      ),
    ).toBe('7.2.22');
  });

  it('is null for anything else', () => {
    expect(parseQemuVersion('qemu-x86_64 version 8.0.0')).toBeNull();
    expect(parseQemuVersion('')).toBeNull();
  });
});
