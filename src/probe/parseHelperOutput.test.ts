import { describe, expect, it } from 'vitest';
import { decodeHwcap, decodeImaExt0, parseHelperOutput } from './parseHelperOutput.ts';

describe('parseHelperOutput', () => {
  it('reads what the helper printed under qemu-user 7.2 on this project’s build machine', () => {
    const facts = parseHelperOutput(
      [
        'hwcap 0x112d',
        'hwprobe-error 38 Function not implemented',
        'insn zba ok',
        'insn zbb ok',
        'insn v sigill',
        'parent-exe /usr/bin/qemu-riscv64-static (deleted)',
      ].join('\n'),
    );
    expect(facts.hwcap).toEqual(['a', 'c', 'd', 'f', 'i', 'm']);
    expect(facts.hwprobe).toBeNull();
    expect(facts.hwprobeError).toEqual({ errno: 38, message: 'Function not implemented' });
    expect(facts.instructions).toEqual({ zba: true, zbb: true, v: false });
    expect(facts.parentExe).toBe('/usr/bin/qemu-riscv64-static (deleted)');
  });

  it('decodes riscv_hwprobe keys: ids, the IMA base and IMA_EXT_0 bits', () => {
    // FD | C | V | ZBA | ZBB | ZBS (bits 0-5) and ZICOND (bit 35)
    const ext = (0x3fn | (1n << 35n)).toString(16);
    const facts = parseHelperOutput(
      [
        'hwprobe 0 0x489',
        'hwprobe 1 0x8000000000000007',
        'hwprobe 2 0x4210427',
        'hwprobe 3 0x1',
        `hwprobe 4 0x${ext}`,
        'hwprobe -1 0x0',
      ].join('\n'),
    );
    expect(facts.hwprobe).toMatchObject({ vendorId: '0x489', archId: '0x8000000000000007', baseIma: true });
    expect(facts.hwprobe?.extensions).toEqual([
      'i',
      'm',
      'a',
      'f',
      'd',
      'c',
      'v',
      'zba',
      'zbb',
      'zbs',
      'zicond',
    ]);
    expect(Object.keys(facts.hwprobe?.raw ?? {})).toEqual(['0', '1', '2', '3', '4']);
  });

  it('names bits it does not know rather than dropping them, and ignores malformed lines', () => {
    expect(decodeImaExt0(1n << 50n)).toEqual(['ima_ext_0-bit50']);
    expect(decodeHwcap(0x200000n)).toEqual(['v']);
    const facts = parseHelperOutput(
      'hwcap nonsense\ninsn ../x ok\nhwprobe 4 0xzz\nunavailable no C compiler',
    );
    expect(facts).toMatchObject({
      hwcap: null,
      instructions: {},
      hwprobe: null,
      unavailable: 'no C compiler',
    });
  });
});
