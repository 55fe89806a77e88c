/** Time as a dependency, so retries and back-off are tested without waiting. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason ?? new Error('aborted'));
        return;
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** A clock whose sleeps return at once and advance its time; it records every sleep. */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(
    private time = 0,
    private readonly randomValue = 0.5,
  ) {}
  now(): number {
    return this.time;
  }
  random(): number {
    return this.randomValue;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    this.sleeps.push(ms);
    this.time += ms;
  }
}
