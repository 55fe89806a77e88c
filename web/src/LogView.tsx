import { useEffect, useRef } from 'preact/hooks';
import type { LogPageView } from '../../src/serve/ServeViews.ts';
import { getJson } from './api.ts';
import { portHref } from './route.ts';
import { usePolling } from './usePolling.ts';

/** One page of a port's log (the server pages it: a huge log is never sent whole), error marked. */
export function LogView({
  portKey,
  file,
  page,
  live,
}: {
  portKey: string;
  file: string;
  page: number;
  live: boolean;
}) {
  const { data, error } = usePolling(
    () => getJson<LogPageView>('/api/port/log', { key: portKey, file, page }),
    [portKey, file, page],
    3000,
    () => live,
  );
  const marked = useRef<HTMLLIElement>(null);
  const list = useRef<HTMLOListElement>(null);
  // the log scrolls inside its own box to the marked line; the page itself stays where it is
  useEffect(() => {
    const line = marked.current;
    const box = list.current;
    if (line && box) box.scrollTop = line.offsetTop - box.offsetTop - box.clientHeight / 2;
  }, [data?.page, data?.errorLine]);
  if (!data) return <p class={error ? 'error' : 'muted'}>{error ?? 'loading…'}</p>;
  const errorPage = data.errorLine ? Math.ceil(data.errorLine / data.pageSize) : null;
  const nav = (
    <nav class="pager">
      <a class={data.page > 1 ? '' : 'disabled'} href={portHref(portKey, file, Math.max(1, data.page - 1))}>
        ← previous
      </a>
      <span class="page-of">
        page {data.page} of {data.pages} ({data.totalLines} lines)
      </span>
      <a
        class={data.page < data.pages ? '' : 'disabled'}
        href={portHref(portKey, file, Math.min(data.pages, data.page + 1))}
      >
        next →
      </a>
      {errorPage && (
        <a class="to-error" href={portHref(portKey, file, errorPage)}>
          error line {data.errorLine}
        </a>
      )}
    </nav>
  );
  return (
    <div class="log">
      {nav}
      <ol class="log-lines" start={data.firstLine} ref={list}>
        {data.lines.map((line, i) => {
          const number = data.firstLine + i;
          const isError = number === data.errorLine;
          return (
            <li
              key={number}
              class={isError ? 'error-line' : line.startsWith('### ') ? 'log-header' : undefined}
              ref={isError ? marked : undefined}
              data-line={number}
            >
              {line}
            </li>
          );
        })}
      </ol>
      {data.lines.length > 50 && nav}
    </div>
  );
}
