import { describe, expect, it } from 'vitest';
import type { ElfFacts } from '../../verify/inspectFile.ts';
import { nothingToProve } from './nothingToProve.ts';

const file = (kind: ElfFacts['kind']) => ({ path: 'x', kind }) as ElfFacts;

describe('nothingToProve', () => {
  it('says a data-only source is data when the build made no object', () => {
    expect(nothingToProve(0, [])).toMatch(/no compiled code .* data or scripts/);
    expect(nothingToProve(0, [file('not_elf')])).toMatch(/data or scripts/);
  });

  it('leaves the verdict alone for compiled code, an unknown analysis, or any object built', () => {
    expect(nothingToProve(3, [])).toBeNull();
    expect(nothingToProve(undefined, [])).toBeNull();
    expect(nothingToProve(0, [file('elf')])).toBeNull();
    expect(nothingToProve(0, [file('archive')])).toBeNull();
  });
});
