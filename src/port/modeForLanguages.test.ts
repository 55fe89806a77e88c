import { describe, expect, it } from 'vitest';
import { modeForLanguages } from './modeForLanguages.ts';

const accelerated = { mode: 'accelerated' as const, reason: 'no proof' };

describe('modeForLanguages', () => {
  it('builds Objective-C in emulated mode when the mode is auto', () => {
    const choice = modeForLanguages(accelerated, 'auto', ['objective-c']);
    expect(choice.mode).toBe('emulated');
    expect(choice.reason).toContain('Objective-C (cc1obj)');
  });

  it('keeps a mode asked for by name and says what it lacks', () => {
    const choice = modeForLanguages(accelerated, 'accelerated', ['ada']);
    expect(choice).toEqual({
      mode: 'accelerated',
      reason: expect.stringContaining('--mode emulated can'),
    });
  });

  it('changes nothing for C and C++ alone', () => {
    expect(modeForLanguages(accelerated, 'auto', [])).toBe(accelerated);
  });
});
