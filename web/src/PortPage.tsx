import { useState } from 'preact/hooks';
import type { FileView, PortDetailView } from '../../src/serve/ServeViews.ts';
import { fileUrl, getJson } from './api.ts';
import { BarChart } from './charts/BarChart.tsx';
import { bytes, seconds, tests } from './format.ts';
import { LogView } from './LogView.tsx';
import { Markdown } from './Markdown.tsx';
import { batchHref, portHref } from './route.ts';
import { usePolling } from './usePolling.ts';
import { Verdict } from './Verdict.tsx';

export function PortPage({
  portKey,
  log,
  logPage,
}: {
  portKey: string;
  log: string | null;
  logPage: number | null;
}) {
  const { data, error } = usePolling(
    () => getJson<PortDetailView>('/api/port', { key: portKey }),
    [portKey],
    3000,
    (d) => d.row.verdict === 'running',
  );
  const [doc, setDoc] = useState<string | null>(null);
  if (!data) return <p class={error ? 'error' : 'muted'}>{error ?? 'loading…'}</p>;
  const { row } = data;
  const shown = data.documents.find((d) => d.name === doc) ?? data.documents[0];
  const logFile =
    log ?? (data.logs.some((l) => l.file === 'build.log') ? 'build.log' : (data.logs[0]?.file ?? null));
  return (
    <article class="port">
      <h2>
        {row.name} <Verdict verdict={row.verdict} />
      </h2>
      {row.batch && (
        <p class="muted">
          in <a href={batchHref(row.batch)}>batch {row.batch === '.' ? '(this folder)' : row.batch}</a>
        </p>
      )}
      <dl class="facts">
        {data.source && (
          <>
            <dt>source</dt>
            <dd>
              {data.source.spec}
              {data.source.commit && <span class="muted"> at {data.source.commit.slice(0, 12)}</span>}
            </dd>
          </>
        )}
        <Fact label="status" value={data.status} />
        <Fact label="verification" value={data.verification} />
        <Fact label="build system" value={row.buildSystem} />
        <Fact label="mode" value={row.mode} />
        <Fact label="time" value={seconds(row.wallMs)} />
        <Fact label="tests" value={tests(row.tests)} />
        <Fact label="differential" value={row.differential} />
        <Fact label="replay" value={row.replay} />
        <Fact label="escalated because" value={data.escalationReason} />
      </dl>
      {data.lastError && (
        <section class="last-error">
          <h3>Last error: {data.lastError.category}</h3>
          <p>
            severity {data.lastError.severity}
            {data.lastError.phase && <> in phase {data.lastError.phase}</>}
          </p>
          {data.lastError.command && (
            <p>
              command <code>{data.lastError.command}</code>
            </p>
          )}
          {data.lastError.errorLine && <pre class="error-text">{data.lastError.errorLine}</pre>}
        </section>
      )}
      <div class="charts">
        <BarChart title="Time per node of the port graph" slices={data.nodeTimes} />
        <BarChart title="Time per build phase (commands run)" slices={data.phaseTimes} />
      </div>
      {data.documents.length > 0 && shown && (
        <section class="documents">
          <div class="tabs" role="tablist">
            {data.documents.map((d) => (
              <button
                type="button"
                role="tab"
                key={d.name}
                aria-selected={d.name === shown.name}
                data-doc={d.name}
                onClick={() => setDoc(d.name)}
              >
                {d.name}
              </button>
            ))}
          </div>
          <div class="document" data-document={shown.name}>
            {shown.markdown !== null ? <Markdown text={shown.markdown} /> : <p class="error">{shown.note}</p>}
          </div>
        </section>
      )}
      {logFile && (
        <section class="logs">
          <h3>Logs</h3>
          <div class="tabs">
            {data.logs.map((l) => (
              <a key={l.file} href={portHref(portKey, l.file)} class={l.file === logFile ? 'active' : ''}>
                {l.file} <span class="muted">({bytes(l.bytes)})</span>
              </a>
            ))}
          </div>
          <LogView portKey={portKey} file={logFile} page={logPage ?? 1} live={row.verdict === 'running'} />
        </section>
      )}
      <Files title="Artifacts" portKey={portKey} files={data.artifacts} withHash />
      <Files title="Files" portKey={portKey} files={data.files} />
      {data.problems.length > 0 && (
        <ul class="problems">
          {data.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </article>
  );
}

function Fact({ label, value }: { label: string; value: string | null }) {
  if (value === null || value === '–') return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

function Files({
  title,
  portKey,
  files,
  withHash,
}: {
  title: string;
  portKey: string;
  files: FileView[];
  withHash?: boolean;
}) {
  if (files.length === 0) return null;
  return (
    <section class="files">
      <h3>{title}</h3>
      <table>
        <thead>
          <tr>
            <th>name</th>
            <th>size</th>
            {withHash && <th>ELF</th>}
            {withHash && <th>sha256</th>}
          </tr>
        </thead>
        <tbody>
          {files.map((f) => (
            <tr key={f.path}>
              <td>
                <a href={fileUrl(portKey, f.path)} download>
                  {f.path}
                </a>
              </td>
              <td class="num">{bytes(f.size)}</td>
              {withHash && <td>{f.facts ?? '–'}</td>}
              {withHash && <td class="hash">{f.sha256 ?? '–'}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
