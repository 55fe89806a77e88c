import type { PortRow } from '../../src/serve/ServeViews.ts';

export type SortColumn =
  | 'name'
  | 'verdict'
  | 'category'
  | 'mode'
  | 'time'
  | 'tests'
  | 'differential'
  | 'replay';

export interface PortFilter {
  verdict: string;
  mode: string;
  text: string;
  sort: SortColumn;
  descending: boolean;
}

export const NO_FILTER: PortFilter = { verdict: '', mode: '', text: '', sort: 'name', descending: false };

/** The rows the table shows: those the filters keep, sorted by one column (missing values last). */
export function filterPorts(rows: readonly PortRow[], filter: PortFilter): PortRow[] {
  const text = filter.text.trim().toLowerCase();
  const kept = rows.filter(
    (r) =>
      (!filter.verdict || r.verdict === filter.verdict) &&
      (!filter.mode || (r.mode ?? '') === filter.mode) &&
      (!text ||
        [r.name, r.key, r.category, r.buildSystem, r.verdict, r.mode].some((v) =>
          v?.toLowerCase().includes(text),
        )),
  );
  const value = sortValue(filter.sort);
  const direction = filter.descending ? -1 : 1;
  return kept.sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va === null && vb === null) return a.name.localeCompare(b.name);
    if (va === null) return 1;
    if (vb === null) return -1;
    const order =
      typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
    return order * direction || a.name.localeCompare(b.name);
  });
}

function sortValue(column: SortColumn): (row: PortRow) => string | number | null {
  switch (column) {
    case 'time':
      return (r) => r.wallMs;
    case 'tests':
      // failures first when descending: a port with failing tests is the one to look at
      return (r) => (r.tests?.ran ? r.tests.failed * 1e6 + r.tests.passed : null);
    case 'name':
      return (r) => r.name;
    default:
      return (r) => r[column];
  }
}
