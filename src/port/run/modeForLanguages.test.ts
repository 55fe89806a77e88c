import { describe, expect, it } from 'vitest';
import type { LanguageUse } from '../../analysis/languagesTheBuildNames.ts';
import { modeForLanguages } from './modeForLanguages.ts';

const accelerated = { mode: 'accelerated' as const, reason: 'no proof' };
const objc: LanguageUse = { language: 'objective-c', needed: true, why: 'configure.ac names it' };
const ada: LanguageUse = { language: 'ada', needed: true, why: 'Makefile names it' };

describe('modeForLanguages', () => {
  it('builds Objective-C the build names in emulated mode when the mode is auto', () => {
    const choice = modeForLanguages(accelerated, 'auto', [objc]);
    expect(choice.mode).toBe('emulated');
    expect(choice.reason).toContain('Objective-C (cc1obj)');
    expect(choice.reason).toContain('configure.ac names it');
  });

  it('keeps a mode asked for by name and says what it lacks', () => {
    const choice = modeForLanguages(accelerated, 'accelerated', [ada]);
    expect(choice).toEqual({
      mode: 'accelerated',
      reason: expect.stringContaining('--mode emulated can'),
    });
  });

  it('keeps the fast mode for code of those languages that the build never names, and says so', () => {
    const unnamed: LanguageUse = { ...ada, needed: false, why: "none of the cmake build's files names it" };
    const native = {
      mode: 'native-userland' as const,
      reason: 'per-build evidence',
      evidence: 'per-build' as const,
    };
    const choice = modeForLanguages(native, 'auto', [unnamed]);
    expect(choice.mode).toBe('native-userland');
    expect(choice.evidence).toBe('per-build');
    expect(choice.reason).toMatch(/Ada \(gnat1\) code but none of the cmake build's files names it/);
  });

  it('changes nothing for C and C++ alone', () => {
    expect(modeForLanguages(accelerated, 'auto', [])).toBe(accelerated);
  });
});
