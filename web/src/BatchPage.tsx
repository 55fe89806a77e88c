import type { BatchView } from '../../src/serve/ServeViews.ts';
import { getJson } from './api.ts';
import { StackedBarChart } from './charts/StackedBarChart.tsx';
import { seconds } from './format.ts';
import { portHref } from './route.ts';
import { usePolling } from './usePolling.ts';
import { Verdict } from './Verdict.tsx';

/** How often a running batch's progress is read again. */
export const BATCH_POLL_MS = 2000;

export function BatchPage({ batchKey }: { batchKey: string }) {
  const { data, error } = usePolling(
    () => getJson<BatchView>('/api/batch', { key: batchKey }),
    [batchKey],
    BATCH_POLL_MS,
    (d) => d.running,
  );
  if (!data) return <p class={error ? 'error' : 'muted'}>{error ?? 'loading…'}</p>;
  const share = data.entries > 0 ? data.finished / data.entries : 0;
  return (
    <article class="batch">
      <h2>
        Batch {batchKey === '.' ? '(this folder)' : batchKey}{' '}
        {data.running ? (
          <span class="badge v-running">running (process {data.holder})</span>
        ) : (
          <span class="badge v-unfinished">not running</span>
        )}
      </h2>
      <div
        class="progress"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={data.entries}
        aria-valuenow={data.finished}
      >
        <svg viewBox="0 0 100 4" preserveAspectRatio="none" width="100%" height="14" aria-hidden="true">
          <rect x="0" y="0" width="100" height="4" class="progress-track" />
          <rect x="0" y="0" width={share * 100} height="4" class="progress-done" />
        </svg>
      </div>
      <p class="progress-text">
        {data.finished} of {data.entries} finished: {data.verified} verified, {data.failed} failed
        {data.inFlight > 0 && `, ${data.inFlight} running`}
      </p>
      {data.updatedAt && (
        <p class="muted">results last written {new Date(data.updatedAt).toLocaleString()}</p>
      )}
      {error && <p class="error">{error}</p>}
      <div class="charts">
        <StackedBarChart title="Verdicts by error category" groups={data.byCategory} />
        <StackedBarChart title="Verdicts by build system" groups={data.byBuildSystem} />
      </div>
      <table class="batch-rows">
        <thead>
          <tr>
            <th>line</th>
            <th>package</th>
            <th>verdict</th>
            <th>category</th>
            <th>build system</th>
            <th>time</th>
            <th>message</th>
          </tr>
        </thead>
        <tbody>
          {data.rows.map((r) => (
            <tr key={r.name} data-entry={r.name} data-verdict={r.verdict}>
              <td class="num">{r.line ?? '–'}</td>
              <td>{r.port ? <a href={portHref(r.port)}>{r.name}</a> : r.name}</td>
              <td>
                <Verdict verdict={r.verdict} />
              </td>
              <td>{r.category ?? '–'}</td>
              <td>{r.buildSystem ?? '–'}</td>
              <td class="num">{seconds(r.wallMs)}</td>
              <td class="message">{r.message ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
