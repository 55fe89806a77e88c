import { describe, expect, it } from 'vitest';
import { crossSpecs } from './crossSpecs.ts';

const dump =
  '*asm:\n--traditional-format\n\n*cc1_options:\n%{pg:%{fomit-frame-pointer:%e-pg}} %1\n\n*cc1plus:\n\n';

describe('crossSpecs', () => {
  it('keeps the whole dump and maps the /native paths back in every cc1 invocation', () => {
    const specs = crossSpecs(dump);
    expect(specs.startsWith('*asm:\n--traditional-format\n')).toBe(true);
    const line = specs.split('\n')[4] ?? '';
    expect(line.startsWith('%{pg:%{fomit-frame-pointer:%e-pg}} %1 -ffile-prefix-map=')).toBe(true);
    expect(line).toContain(
      '-ffile-prefix-map=/native/usr/lib/gcc-cross/riscv64-linux-gnu/14=/usr/lib/gcc/riscv64-linux-gnu/14',
    );
    expect(line.indexOf('c++/14/riscv64-linux-gnu=')).toBeGreaterThan(
      line.indexOf('c++/14=/usr/include/c++/14'),
    );
  });

  it('fails loudly on a dump without cc1 options', () => {
    expect(() => crossSpecs('*asm:\nx\n')).toThrow(/cc1_options/);
  });
});
