import type { PortVerdict, TestsView } from '../../src/serve/ServeViews.ts';

export function seconds(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

export function tests(t: TestsView | null): string {
  if (!t) return '–';
  if (!t.ran) return 'not run';
  return `${t.passed} passed, ${t.failed} failed`;
}

export const VERDICT_LABELS: Record<PortVerdict, string> = {
  verified: 'verified',
  not_verified: 'not verified',
  escalated: 'escalated',
  package_failed: 'package failed',
  invalid: 'invalid',
  crashed: 'crashed',
  timed_out: 'timed out',
  running: 'running',
  unfinished: 'unfinished',
};

/** The order verdicts are shown in (charts, legends, filters). */
export const VERDICT_ORDER: PortVerdict[] = [
  'verified',
  'not_verified',
  'escalated',
  'package_failed',
  'timed_out',
  'crashed',
  'invalid',
  'running',
  'unfinished',
];
