import { describe, expect, it } from 'vitest';
import { compareInterleaved, compareTimings } from './measure.ts';

describe('compareTimings', () => {
  it('calls a tune faster only when the rank test says so and its median is lower', () => {
    const faster = compareTimings([100, 102, 101, 103, 99, 104, 100.5], [90, 91, 89, 92, 90.5, 88, 91.5]);
    expect(faster).toMatchObject({
      runs: 7,
      baselineMedianMs: 101,
      tuneMedianMs: 90.5,
      faster: true,
      method: 'exact',
    });
    expect(faster.p).toBeCloseTo(2 / 3432, 12);
    expect(faster.ratio).toBeCloseTo(90.5 / 101, 12);
    // slower with the same significance is not faster
    expect(
      compareTimings([90, 91, 89, 92, 90.5, 88, 91.5], [100, 102, 101, 103, 99, 104, 100.5]).faster,
    ).toBe(false);
    // overlapping samples: a lower median is not enough
    const noise = compareTimings([100, 95, 105, 98, 102], [97, 101, 96, 104, 99]);
    expect(noise.ratio).toBeLessThan(1);
    expect(noise.faster).toBe(false);
  });

  it('never calls anything faster from three runs a side (the emulated setting)', () => {
    expect(compareTimings([100, 101, 102], [10, 11, 12]).faster).toBe(false);
  });
});

describe('compareInterleaved', () => {
  it('alternates which build goes first', async () => {
    const order: string[] = [];
    const result = await compareInterleaved(
      async () => {
        order.push('b');
        return 10;
      },
      async () => {
        order.push('t');
        return 5;
      },
      4,
    );
    expect(order.join('')).toBe('bttbbttb');
    expect(result.runs).toBe(4);
  });
});
