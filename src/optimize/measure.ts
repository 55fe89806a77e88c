import { mannWhitneyU, median } from './mannWhitneyU.ts';
import type { TimingComparison } from './OptimizationReport.ts';

/** A tune is faster when the rank test says so at this level (two-sided). */
export const SIGNIFICANCE = 0.05;

/** Timed runs of one build: milliseconds, or a failure that stops the measurement. */
export type TimedRun = () => Promise<number>;

/**
 * Times the baseline and a tune in turn, `runs` times each, alternating which goes first so a
 * drift of the machine (a warming cache, another job) falls on both alike, then compares them
 * with the Mann–Whitney U test. Statistics decide; nothing else does.
 */
export async function compareInterleaved(
  baseline: TimedRun,
  tune: TimedRun,
  runs: number,
): Promise<TimingComparison> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      a.push(await baseline());
      b.push(await tune());
    } else {
      b.push(await tune());
      a.push(await baseline());
    }
  }
  return compareTimings(a, b);
}

/** The comparison of two samples of run times (baseline, tune). */
export function compareTimings(baseline: readonly number[], tune: readonly number[]): TimingComparison {
  const test = mannWhitneyU(tune, baseline);
  const baselineMedianMs = median(baseline);
  const tuneMedianMs = median(tune);
  const ratio = baselineMedianMs > 0 ? tuneMedianMs / baselineMedianMs : 1;
  return {
    runs: Math.min(baseline.length, tune.length),
    baselineMedianMs,
    tuneMedianMs,
    ratio,
    p: test.p,
    method: test.method,
    faster: test.p < SIGNIFICANCE && ratio < 1,
  };
}
