import { describe, expect, it } from 'vitest';
import { mannWhitneyU, median, normalCdf } from './mannWhitneyU.ts';

// Reference p-values from SciPy 1.17 (scipy.stats.mannwhitneyu, two-sided).
describe('mannWhitneyU', () => {
  it('gives the exact p-value for small samples without ties', () => {
    expect(mannWhitneyU([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])).toEqual({
      u1: 0,
      u2: 25,
      p: 2 / 252,
      method: 'exact',
    });
    expect(mannWhitneyU([1, 3, 5, 7], [2, 4, 6, 8]).p).toBeCloseTo(0.6857142857142857, 12);
    const seven = mannWhitneyU([10, 12, 11, 14, 13, 15, 9], [16, 18, 17, 19, 20, 14.5, 21]);
    expect(seven.u1).toBe(1);
    expect(seven.p).toBeCloseTo(0.0011655011655011655, 12);
  });

  it('cannot be significant with three runs a side (the smallest two-sided p is 0.1)', () => {
    expect(mannWhitneyU([1, 2, 3], [4, 5, 6]).p).toBeCloseTo(0.1, 12);
  });

  it('uses the normal approximation with tie and continuity corrections otherwise', () => {
    const tied = mannWhitneyU([1, 2, 2, 3, 4], [2, 3, 4, 5, 5, 6]);
    expect(tied).toMatchObject({ u1: 5, method: 'normal' });
    expect(tied.p).toBeCloseTo(0.07794691458872482, 6);
    const large = mannWhitneyU(
      Array.from({ length: 30 }, (_, i) => i),
      Array.from({ length: 30 }, (_, i) => i + 5),
    );
    expect(large.u1).toBe(312.5);
    expect(large.p).toBeCloseTo(0.04274735330571392, 6);
  });

  it('is symmetric and says nothing about identical samples', () => {
    expect(mannWhitneyU([6, 7, 8], [1, 2, 3]).p).toBeCloseTo(0.1, 12);
    expect(mannWhitneyU([5, 5, 5], [5, 5, 5]).p).toBe(1);
    expect(() => mannWhitneyU([], [1])).toThrow(RangeError);
  });
});

describe('normalCdf and median', () => {
  it('match known values', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.158655, 6);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
