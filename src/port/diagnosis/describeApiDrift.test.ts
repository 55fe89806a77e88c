import { describe, expect, it } from 'vitest';
import { describeApiDrift } from './describeApiDrift.ts';

describe('describeApiDrift', () => {
  it('names the library, its version and header, the uses and the nearest names', () => {
    const header = '/usr/include/riscv64-linux-gnu/libavcodec/avcodec.h';
    const text = describeApiDrift(
      [
        {
          use: {
            kind: 'member',
            of: 'AVCodecContext',
            symbol: 'channel_layout',
            suggestion: 'ch_layout',
            at: 'ff.c:3',
          },
          header,
          package: 'libavcodec-dev',
          version: '7:7.1.5-0+deb13u1',
        },
        {
          use: { kind: 'member', of: 'AVCodecContext', symbol: 'channels' },
          header,
          package: 'libavcodec-dev',
        },
      ],
      true,
    );
    expect(text).toContain(`libavcodec-dev 7:7.1.5-0+deb13u1 (\`${header}\`) no longer has`);
    expect(text).toContain(
      "`AVCodecContext.channel_layout` (ff.c:3; the header's nearest name: `ch_layout`)",
    );
    expect(text).toContain('`AVCodecContext.channels`');
    expect(text).toContain("Debian's patches were applied and do not carry the change");
  });

  it('names a function as a call', () => {
    const text = describeApiDrift(
      [
        {
          use: { kind: 'function', symbol: 'gpiod_chip_get_line', suggestion: 'gpiod_chip_get_info' },
          header: '/usr/include/gpiod.h',
        },
      ],
      false,
    );
    expect(text).toContain('`/usr/include/gpiod.h` no longer has `gpiod_chip_get_line()`');
    expect(text).toContain("Debian's packaging of the package often carries the patch");
  });
});
