import { describe, expect, it } from 'vitest';
import { type PortTime, percentile, renderPortTimes, summarizePortTimes } from './portTimes.ts';

const port = (
  name: string,
  verdict: string,
  mode: string | null,
  wallS: number,
  phases: Record<string, number> = {},
): PortTime => ({
  name,
  verdict,
  mode,
  wallMs: wallS * 1000,
  phases: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, v * 1000])),
});

describe('port times', () => {
  it('takes nearest-rank percentiles', () => {
    const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(ten, 50)).toBe(5);
    expect(percentile(ten, 90)).toBe(9);
    expect(percentile([7], 90)).toBe(7);
    expect(percentile([], 50)).toBe(0);
  });

  it('summarizes verified ports by mode and the phases by their share of the wall time', () => {
    const ports = [
      port('a', 'verified', 'native-userland', 40, { build: 30, replay: 8 }),
      port('b', 'verified', 'accelerated', 100, { build: 50, replay: 40, test: 5 }),
      port('c', 'verified', 'accelerated', 300, { build: 200, test: 90 }),
      port('d', 'escalated', 'accelerated', 900, { build: 880 }),
    ];
    const summary = summarizePortTimes(ports);
    expect(summary.all).toEqual({ count: 4, medianMs: 100_000, p90Ms: 900_000, maxMs: 900_000 });
    expect(summary.verified).toEqual({ count: 3, medianMs: 100_000, p90Ms: 300_000, maxMs: 300_000 });
    expect(Object.keys(summary.byMode)).toEqual(['accelerated', 'native-userland']);
    expect(summary.byMode.accelerated?.count).toBe(2);
    expect(summary.phases.map((p) => p.phase)).toEqual(['build', 'test', 'replay']);
    expect(summary.phases[0]).toMatchObject({ medianMs: 50_000, totalMs: 280_000 });
    expect(summary.phases[0]?.share).toBeCloseTo(280 / 440);
    const text = renderPortTimes(ports);
    expect(text).toContain('| verified | 3 | 100.0 | 300.0 | 300.0 |');
    expect(text.split('\n').find((l) => l.startsWith('| d |'))).toBe(
      '| d | escalated | accelerated | 900.0 | build 880.0 |',
    );
  });
});
