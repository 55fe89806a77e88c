import { describe, expect, it } from 'vitest';
import { checkAutotoolsHelpers, knowsRiscv64 } from './checkAutotoolsHelpers.ts';
import { SourceTree } from './SourceTree.ts';

describe('checkAutotoolsHelpers', () => {
  it('reads config.guess and config.sub patterns', () => {
    expect(knowsRiscv64('config.guess', '    riscv32:Linux:*:* | riscv64:Linux:*:*)')).toBe(true);
    expect(knowsRiscv64('config.guess', '    riscv*:Linux:*:*)')).toBe(true);
    expect(knowsRiscv64('config.guess', '    aarch64:Linux:*:*)')).toBe(false);
    expect(knowsRiscv64('config.sub', '\t| pyramid | riscv32 | riscv64 \\')).toBe(true);
    expect(knowsRiscv64('config.sub', '\t| pyramid | sparc \\')).toBe(false);
  });

  it('lists every helper with its timestamp', () => {
    const tree = SourceTree.fromFiles({
      'gnu/config.guess': "timestamp='1996-10-12'\n",
      'config.sub': "timestamp='2020-01-01'\n riscv64\n",
    });
    expect(checkAutotoolsHelpers(tree)).toEqual([
      { file: 'config.sub', kind: 'config.sub', timestamp: '2020-01-01', knowsRiscv64: true },
      { file: 'gnu/config.guess', kind: 'config.guess', timestamp: '1996-10-12', knowsRiscv64: false },
    ]);
  });
});
