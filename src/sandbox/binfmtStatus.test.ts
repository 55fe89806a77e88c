import { describe, expect, it } from 'vitest';
import { parseBinfmtEntry } from './binfmtStatus.ts';

describe('parseBinfmtEntry', () => {
  it('sees the F flag and the interpreter', () => {
    const s = parseBinfmtEntry(
      'enabled\ninterpreter /usr/libexec/qemu-binfmt/riscv64-binfmt-P\nflags: PF\noffset 0\nmagic 7f454c46\n',
    );
    expect(s).toMatchObject({
      enabled: true,
      fixBinary: true,
      interpreter: '/usr/libexec/qemu-binfmt/riscv64-binfmt-P',
    });
  });

  it('reports a disabled entry without F', () => {
    expect(parseBinfmtEntry('disabled\ninterpreter /usr/bin/qemu-riscv64\nflags: P\n')).toMatchObject({
      enabled: false,
      fixBinary: false,
      flags: 'P',
    });
  });
});
