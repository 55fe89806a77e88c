import type { Clock } from '../../src/engine/index.ts';

/** Real time for durations, virtual time for waits: `sleep` returns at once and is recorded. */
export function createTestClock(): Pick<Clock, 'now' | 'sleep'> & { sleeps: number[] } {
  let offset = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => Date.now() + offset,
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      offset += ms;
    },
  };
}
