import { useState } from 'preact/hooks';
import type { OverviewView, PortRow } from '../../src/serve/ServeViews.ts';
import { getJson } from './api.ts';
import { filterPorts, NO_FILTER, type PortFilter, type SortColumn } from './filterPorts.ts';
import { seconds, tests, VERDICT_LABELS, VERDICT_ORDER } from './format.ts';
import { batchHref, portHref } from './route.ts';
import { usePolling } from './usePolling.ts';
import { Verdict } from './Verdict.tsx';

const COLUMNS: { id: SortColumn; label: string }[] = [
  { id: 'name', label: 'package' },
  { id: 'verdict', label: 'verdict' },
  { id: 'category', label: 'category' },
  { id: 'mode', label: 'mode' },
  { id: 'time', label: 'time' },
  { id: 'tests', label: 'tests' },
  { id: 'differential', label: 'differential' },
  { id: 'replay', label: 'replay' },
];
/** The table reloads this often while a batch runs (new ports appear, running ones end). */
const POLL_MS = 3000;

export function PortsPage() {
  const { data, error } = usePolling(
    () => getJson<OverviewView>('/api/overview'),
    [],
    POLL_MS,
    (d) => d.batches.some((b) => b.running),
  );
  const [filter, setFilter] = useState<PortFilter>(NO_FILTER);
  if (!data) return <p class={error ? 'error' : 'muted'}>{error ?? 'loading…'}</p>;
  const rows = filterPorts(data.ports, filter);
  const modes = [...new Set(data.ports.map((p) => p.mode).filter((m): m is string => !!m))].sort();
  const verdicts = VERDICT_ORDER.filter((v) => data.ports.some((p) => p.verdict === v));
  const sortBy = (id: SortColumn) =>
    setFilter((f) => ({ ...f, sort: id, descending: f.sort === id ? !f.descending : id === 'time' }));
  return (
    <section>
      <p class="muted">
        Output folder <code>{data.out}</code>: {data.ports.length} port{data.ports.length === 1 ? '' : 's'}
      </p>
      {data.batches.length > 0 && (
        <ul class="batches">
          {data.batches.map((b) => (
            <li key={b.key}>
              <a href={batchHref(b.key)}>batch {b.key === '.' ? '(this folder)' : b.key}</a>{' '}
              {b.running && <span class="badge v-running">running</span>}
            </li>
          ))}
        </ul>
      )}
      <div class="filters">
        <label>
          verdict{' '}
          <select
            name="verdict"
            value={filter.verdict}
            onChange={(e) => setFilter({ ...filter, verdict: (e.target as HTMLSelectElement).value })}
          >
            <option value="">all</option>
            {verdicts.map((v) => (
              <option key={v} value={v}>
                {VERDICT_LABELS[v]}
              </option>
            ))}
          </select>
        </label>
        <label>
          mode{' '}
          <select
            name="mode"
            value={filter.mode}
            onChange={(e) => setFilter({ ...filter, mode: (e.target as HTMLSelectElement).value })}
          >
            <option value="">all</option>
            {modes.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
        <label>
          search{' '}
          <input
            name="text"
            type="search"
            placeholder="name, category, build system"
            value={filter.text}
            onInput={(e) => setFilter({ ...filter, text: (e.target as HTMLInputElement).value })}
          />
        </label>
        <span class="muted count">
          {rows.length} of {data.ports.length} shown
        </span>
      </div>
      <table class="ports">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th
                key={c.id}
                aria-sort={filter.sort === c.id ? (filter.descending ? 'descending' : 'ascending') : 'none'}
              >
                <button type="button" data-sort={c.id} onClick={() => sortBy(c.id)}>
                  {c.label}
                  {filter.sort === c.id ? (filter.descending ? ' ▼' : ' ▲') : ''}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <Row key={r.key} row={r} />
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p class="muted">no port matches</p>}
      {data.problems.length > 0 && (
        <details class="problems">
          <summary>{data.problems.length} thing(s) could not be read</summary>
          <ul>
            {data.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function Row({ row }: { row: PortRow }) {
  return (
    <tr data-port={row.key}>
      <td>
        <a href={portHref(row.key)}>{row.name}</a>
        {row.batch && row.batch !== '.' && <span class="muted"> ({row.batch})</span>}
      </td>
      <td>
        <Verdict verdict={row.verdict} />
      </td>
      <td>{row.category ?? '–'}</td>
      <td>{row.mode ?? '–'}</td>
      <td class="num">{seconds(row.wallMs)}</td>
      <td>{tests(row.tests)}</td>
      <td>{row.differential ?? '–'}</td>
      <td>{row.replay ?? '–'}</td>
    </tr>
  );
}
