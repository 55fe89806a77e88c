/** One finished port's time: the batch's wall time and where the port's own nodes spent it. */
export interface PortTime {
  name: string;
  verdict: string;
  /** The sandbox mode that built it (null: the port ended before a mode was chosen). */
  mode: string | null;
  wallMs: number;
  /** Milliseconds per node of the port graph (state.json `timings`). */
  phases: Record<string, number>;
}

export interface TimeSummary {
  count: number;
  medianMs: number;
  p90Ms: number;
  maxMs: number;
}

export interface PhaseShare {
  phase: string;
  medianMs: number;
  totalMs: number;
  /** Of the summed wall time of the ports. */
  share: number;
}

export interface PortTimesSummary {
  all: TimeSummary;
  verified: TimeSummary;
  /** Verified ports by the mode that built them. */
  byMode: Record<string, TimeSummary>;
  /** Per node over the verified ports, the largest total first. */
  phases: PhaseShare[];
}

/** The nearest-rank percentile (p in 0..100) of ascending values; 0 for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function summarizeTimes(values: readonly number[]): TimeSummary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    medianMs: percentile(sorted, 50),
    p90Ms: percentile(sorted, 90),
    maxMs: sorted.at(-1) ?? 0,
  };
}

/** Median, p90 and max port time, all and verified, by mode, and the phases' shares. */
export function summarizePortTimes(ports: readonly PortTime[]): PortTimesSummary {
  const verified = ports.filter((p) => p.verdict === 'verified');
  const modes = new Map<string, number[]>();
  for (const p of verified) {
    const key = p.mode ?? 'none';
    modes.set(key, [...(modes.get(key) ?? []), p.wallMs]);
  }
  const phaseNames = new Set(verified.flatMap((p) => Object.keys(p.phases)));
  const wall = verified.reduce((sum, p) => sum + p.wallMs, 0);
  const phases = [...phaseNames]
    .map((phase) => {
      const values = verified.map((p) => p.phases[phase] ?? 0);
      const totalMs = values.reduce((a, b) => a + b, 0);
      return {
        phase,
        medianMs: summarizeTimes(values).medianMs,
        totalMs,
        share: wall > 0 ? totalMs / wall : 0,
      };
    })
    .sort((a, b) => b.totalMs - a.totalMs || a.phase.localeCompare(b.phase));
  return {
    all: summarizeTimes(ports.map((p) => p.wallMs)),
    verified: summarizeTimes(verified.map((p) => p.wallMs)),
    byMode: Object.fromEntries([...modes].sort().map(([mode, values]) => [mode, summarizeTimes(values)])),
    phases,
  };
}

const s = (ms: number) => (ms / 1000).toFixed(1);

/** The summary and every port as Markdown tables (slowest port first). */
export function renderPortTimes(ports: readonly PortTime[]): string {
  const summary = summarizePortTimes(ports);
  const row = (label: string, t: TimeSummary) =>
    `| ${label} | ${t.count} | ${s(t.medianMs)} | ${s(t.p90Ms)} | ${s(t.maxMs)} |`;
  const lines = [
    '| ports | n | median (s) | p90 (s) | max (s) |',
    '|---|---|---|---|---|',
    row('all', summary.all),
    row('verified', summary.verified),
    ...Object.entries(summary.byMode).map(([mode, t]) => row(`verified, ${mode}`, t)),
    '',
    '| phase (verified ports) | median (s) | total (s) | share of wall time |',
    '|---|---|---|---|',
    ...summary.phases.map(
      (p) => `| ${p.phase} | ${s(p.medianMs)} | ${s(p.totalMs)} | ${(p.share * 100).toFixed(1)} % |`,
    ),
    '',
    '| package | verdict | mode | wall (s) | largest phases (s) |',
    '|---|---|---|---|---|',
    ...[...ports]
      .sort((a, b) => b.wallMs - a.wallMs || a.name.localeCompare(b.name))
      .map((p) => {
        const top = Object.entries(p.phases)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([phase, ms]) => `${phase} ${s(ms)}`)
          .join(', ');
        return `| ${p.name} | ${p.verdict} | ${p.mode ?? '-'} | ${s(p.wallMs)} | ${top} |`;
      }),
  ];
  return `${lines.join('\n')}\n`;
}
