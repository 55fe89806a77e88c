import type { TimeSlice } from '../../../src/serve/ServeViews.ts';
import { seconds } from '../format.ts';

// Charts are plain SVG drawn from the data: two kinds (bars, stacked bars) with a few dozen rows
// at most do not need a charting library, SVG elements are testable in the DOM like any other,
// need no canvas or inline style, and scale with the page.

const ROW = 22;
const LABEL = 130;
const WIDTH = 560;
const VALUE = 70;

/** Horizontal bars, one per slice (time per node or per phase), with the value beside each. */
export function BarChart({ title, slices }: { title: string; slices: TimeSlice[] }) {
  const max = Math.max(1, ...slices.map((s) => s.ms));
  const bar = WIDTH - LABEL - VALUE;
  const height = slices.length * ROW + 4;
  return (
    <figure class="chart" aria-label={title}>
      <figcaption>{title}</figcaption>
      {slices.length === 0 ? (
        <p class="muted">no times recorded</p>
      ) : (
        <svg viewBox={`0 0 ${WIDTH} ${height}`} width={WIDTH} height={height} role="img" aria-label={title}>
          {slices.map((s, i) => (
            <g key={s.name} class="bar-row" transform={`translate(0 ${i * ROW + 2})`}>
              <text x={LABEL - 6} y={ROW / 2 + 4} text-anchor="end" class="chart-label">
                {s.name}
              </text>
              <rect x={LABEL} y={3} height={ROW - 6} width={Math.max(1, (s.ms / max) * bar)} class="bar">
                <title>{`${s.name}: ${seconds(s.ms)}`}</title>
              </rect>
              <text x={LABEL + Math.max(1, (s.ms / max) * bar) + 6} y={ROW / 2 + 4} class="chart-value">
                {seconds(s.ms)}
              </text>
            </g>
          ))}
        </svg>
      )}
    </figure>
  );
}
