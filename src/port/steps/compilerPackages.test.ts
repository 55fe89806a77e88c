import { describe, expect, it } from 'vitest';
import { portState } from '../testing/portStateFixture.ts';
import { compilerPackages } from './compilerPackages.ts';

const withLanguages = (mode: 'emulated' | 'accelerated', extraLanguages: unknown[], compilers?: string[]) => {
  const state = portState({ scripted: { extraLanguages } } as never);
  state.options.mode = mode;
  if (compilers) state.options.compilers = compilers;
  return state;
};

describe('compilerPackages', () => {
  it('installs the front ends of the languages the build names, in emulated mode only', () => {
    const uses = [
      { language: 'objective-c', needed: true, why: 'configure.ac names it' },
      { language: 'ada', needed: false, why: "none of the make build's files names it" },
    ];
    expect(compilerPackages(withLanguages('emulated', uses))).toEqual(['gobjc']);
    expect(compilerPackages(withLanguages('accelerated', uses))).toEqual([]);
  });

  it("adds what a redone port carries, and reads an older state's plain language names as nothing", () => {
    expect(compilerPackages(withLanguages('emulated', ['ada'], ['gobjc++']))).toEqual(['gobjc++']);
  });
});
