import { describe, expect, it } from 'vitest';
import { bareMetal } from './bareMetal.ts';
import { scanWith } from './scanWith.testing.ts';

describe('bare-metal', () => {
  it('reports a freestanding build with its own linker script (memtest86+)', () => {
    const text =
      'CFLAGS = -ffreestanding -fno-pic\nmemtest.elf: $(OBJS)\n\t$(LD) -T ldscripts/memtest_shared.lds -o $@ $^\n';
    expect(scanWith(bareMetal, { 'build64/Makefile': text })).toEqual([
      expect.objectContaining({ severity: 'high', line: 1 }),
    ]);
  });

  it('needs both signs', () => {
    expect(scanWith(bareMetal, { Makefile: 'CFLAGS = -ffreestanding\n' })).toEqual([]);
    expect(scanWith(bareMetal, { Makefile: 'LDFLAGS = -T x.lds\n' })).toEqual([]);
  });
});
