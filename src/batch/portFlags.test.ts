import { describe, expect, it } from 'vitest';
import { portFlags, portSettingsSchema } from './portFlags.ts';

describe('portFlags', () => {
  it('turns typed settings into `rvport port` flags', () => {
    expect(portFlags({ force: false })).toEqual([]);
    expect(
      portFlags({
        force: true,
        maxAttempts: 3,
        mode: 'emulated',
        commandTimeoutSec: 600,
        testTimeoutSec: 300,
        offline: true,
        costCapUsd: 0.5,
        differential: true,
      }),
    ).toEqual([
      '--force',
      '--max-attempts',
      '3',
      '--mode',
      'emulated',
      '--timeout',
      '600',
      '--test-timeout',
      '300',
      '--offline',
      '--cost-cap',
      '0.5',
      '--differential',
    ]);
  });

  it('accepts no settings it does not know (a queue job cannot smuggle flags in)', () => {
    expect(portSettingsSchema.safeParse({ force: false, extra: '--keep-sandbox' }).success).toBe(false);
    expect(portSettingsSchema.safeParse({ force: false, mode: 'native; rm -rf /' }).success).toBe(false);
  });
});
