import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideVerdict } from './decideVerdict.ts';
import { inspectFile } from './inspectFile.ts';

const fx = (name: string) => join(import.meta.dirname, 'fixtures', name);

describe('decideVerdict with expected artifacts (the port workflow)', () => {
  it('needs one expected artifact to be riscv64', async () => {
    const files = [await inspectFile(fx('riscv64-exe')), await inspectFile(fx('riscv64-lib.a'))];
    expect(decideVerdict(files, { expected: [fx('riscv64-exe')] }).verdict).toBe('verified');
    expect(decideVerdict(files, { expected: [fx('riscv64-lib.a')] }).verdict).toBe('verified');
    const missing = decideVerdict(files, { expected: [fx('nothing')] });
    expect(missing.verdict).toBe('not_verified');
    expect(missing.reason).toMatch(/none of the expected artifacts/);
  });

  it('fails when any output is another machine, even if the expected one is riscv64', async () => {
    const files = [await inspectFile(fx('riscv64-exe')), await inspectFile(fx('i386.o'))];
    const verdict = decideVerdict(files, { expected: [fx('riscv64-exe')] });
    expect(verdict.verdict).toBe('not_verified');
    expect(verdict.foreign).toEqual([fx('i386.o')]);
  });
});
