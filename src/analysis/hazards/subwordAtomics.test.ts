import { describe, expect, it } from 'vitest';
import { scanWith } from './scanWith.testing.ts';
import { subwordAtomics } from './subwordAtomics.ts';

describe('subword-atomics', () => {
  it('reports atomics on 8/16-bit values', () => {
    expect(scanWith(subwordAtomics, { 'a.cpp': 'std::atomic<bool> ready;\n' })).toEqual([
      expect.objectContaining({ severity: 'medium', line: 1 }),
    ]);
    expect(
      scanWith(subwordAtomics, { 'b.c': 'x = __sync_fetch_and_add((uint16_t *)&c, 1);\n' })[0]?.severity,
    ).toBe('medium');
  });

  it('notes generic builtins as info and ignores plain code', () => {
    expect(
      scanWith(subwordAtomics, { 'c.c': 'n = __atomic_fetch_add(&count, 1, __ATOMIC_SEQ_CST);\n' })[0]
        ?.severity,
    ).toBe('info');
    expect(scanWith(subwordAtomics, { 'd.c': 'int atomic = 1;\n' })).toEqual([]);
  });
});
