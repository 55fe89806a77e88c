import type { PortVerdict, VerdictCounts } from '../../../src/serve/ServeViews.ts';
import { VERDICT_LABELS, VERDICT_ORDER } from '../format.ts';

const ROW = 24;
const LABEL = 170;
const WIDTH = 600;
const TOTAL = 40;

/** One bar per group (an error category, a build system), split by verdict, with a legend. */
export function StackedBarChart({ title, groups }: { title: string; groups: VerdictCounts[] }) {
  const totals = groups.map((g) => Object.values(g.counts).reduce((a, b) => a + (b ?? 0), 0));
  const max = Math.max(1, ...totals);
  const bar = WIDTH - LABEL - TOTAL;
  const height = groups.length * ROW + 4;
  const present = VERDICT_ORDER.filter((v) => groups.some((g) => (g.counts[v] ?? 0) > 0));
  return (
    <figure class="chart" aria-label={title}>
      <figcaption>{title}</figcaption>
      {groups.length === 0 ? (
        <p class="muted">no finished entries yet</p>
      ) : (
        <>
          <svg viewBox={`0 0 ${WIDTH} ${height}`} width={WIDTH} height={height} role="img" aria-label={title}>
            {groups.map((g, i) => {
              let x = LABEL;
              return (
                <g key={g.label} class="stack-row" transform={`translate(0 ${i * ROW + 2})`}>
                  <text x={LABEL - 6} y={ROW / 2 + 4} text-anchor="end" class="chart-label">
                    {g.label}
                  </text>
                  {VERDICT_ORDER.map((v: PortVerdict) => {
                    const n = g.counts[v] ?? 0;
                    if (n === 0) return null;
                    const w = (n / max) * bar;
                    const rect = (
                      <rect key={v} x={x} y={3} width={w} height={ROW - 6} class={`seg v-${v}`}>
                        <title>{`${g.label}: ${n} ${VERDICT_LABELS[v]}`}</title>
                      </rect>
                    );
                    x += w;
                    return rect;
                  })}
                  <text x={x + 6} y={ROW / 2 + 4} class="chart-value">
                    {totals[i]}
                  </text>
                </g>
              );
            })}
          </svg>
          <ul class="legend">
            {present.map((v) => (
              <li key={v}>
                <span class={`swatch v-${v}`} />
                {VERDICT_LABELS[v]}
              </li>
            ))}
          </ul>
        </>
      )}
    </figure>
  );
}
