import { describe, expect, it } from 'vitest';
import { systemClock } from './clock.ts';

describe('systemClock', () => {
  it('sleeps', async () => {
    const started = Date.now();
    await systemClock.sleep(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('stops sleeping when aborted, with the reason', async () => {
    const controller = new AbortController();
    const sleeping = systemClock.sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    await expect(systemClock.sleep(10, AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });
});
