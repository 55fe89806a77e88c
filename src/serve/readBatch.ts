import {
  BATCH_LOCK,
  BATCH_RESULTS,
  BATCH_STATE,
  BATCH_SUMMARY,
  type BatchFolder,
  entryOf,
  type OutputFolder,
} from './OutputFolder.ts';
import { batchStateSchema, type EntryResultView, entryResultSchema } from './portStateSchema.ts';
import type { BatchRowView, BatchView, PortVerdict, VerdictCounts } from './ServeViews.ts';

/** results.jsonl of a batch is read up to this size (a line is about 600 bytes). */
export const MAX_RESULTS_BYTES = 64 * 1024 * 1024;
export const MAX_SUMMARY_BYTES = 16 * 1024 * 1024;

/** Whether a process runs; injected so tests decide. */
export type IsAlive = (pid: number) => boolean;

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface BatchState {
  results: Map<string, EntryResultView>;
  running: boolean;
  holder: number | null;
  /** Entries in LIST order from summary.md: line and name (or SOURCE). */
  listed: { line: number; name: string }[];
  /** When batch.lock was taken (ms), when it is held. */
  lockedAtMs: number | null;
  updatedAt: string | null;
}

const rel = (batch: string, name: string) => (batch === '.' ? name : `${batch}/${name}`);

/**
 * What a batch folder says: its results (results.jsonl, the last line of a key winning; else
 * batch.json), whether a batch runs on it now (batch.lock held by a live process), and its
 * entries in LIST order (summary.md's table: a batch writes no other list of its entries).
 */
export function readBatchState(
  folder: OutputFolder,
  batch: BatchFolder,
  alive: IsAlive,
  problems: string[],
): BatchState {
  const results = new Map<string, EntryResultView>();
  const add = (value: unknown) => {
    const parsed = entryResultSchema.safeParse(value);
    if (parsed.success) results.set(parsed.data.key, parsed.data);
  };
  const jsonl = folder.readText(rel(batch.key, BATCH_RESULTS), MAX_RESULTS_BYTES);
  if (jsonl.problem) problems.push(jsonl.problem);
  if (jsonl.value !== null) {
    for (const line of jsonl.value.split('\n')) {
      if (line.trim() === '') continue;
      try {
        add(JSON.parse(line));
      } catch {
        // a line being written, or a torn one: the next poll reads it whole
      }
    }
  } else {
    const state = folder.readJson(
      rel(batch.key, BATCH_STATE),
      batchStateSchema,
      entryOf(batch.entries, BATCH_STATE),
    );
    if (state.problem) problems.push(state.problem);
    for (const value of Object.values(state.value?.results ?? {})) add(value);
  }
  const lock = entryOf(batch.entries, BATCH_LOCK);
  let holder: number | null = null;
  if (lock) {
    const text = folder.readText(rel(batch.key, BATCH_LOCK), 1024).value ?? '';
    const pid = Number(text.trim().split(/\s+/)[0]);
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) holder = pid;
  }
  const summary = folder.readText(rel(batch.key, BATCH_SUMMARY), MAX_SUMMARY_BYTES);
  const resultsEntry = entryOf(batch.entries, BATCH_RESULTS);
  return {
    results,
    running: holder !== null,
    holder,
    listed: summary.value ? parseSummaryEntries(summary.value) : [],
    lockedAtMs: holder !== null && lock ? lock.mtimeMs : null,
    updatedAt: resultsEntry ? new Date(resultsEntry.mtimeMs).toISOString() : null,
  };
}

/**
 * The entries of summary.md's first table (`| line | package | verdict | …`), in LIST order. A
 * name cell escapes `|` as `\|` and `\` as `\\`.
 */
export function parseSummaryEntries(markdown: string): { line: number; name: string }[] {
  const rows: { line: number; name: string }[] = [];
  let inTable = false;
  for (const text of markdown.split('\n')) {
    if (text.startsWith('| line | package |')) {
      inTable = true;
      continue;
    }
    if (!inTable) continue;
    if (text.startsWith('|---')) continue;
    const row = /^\| (\d{1,9}) \| ((?:\\.|[^|\\])*) \|/.exec(text);
    if (!row) break;
    rows.push({ line: Number(row[1]), name: (row[2] as string).replace(/\\(.)/g, '$1') });
  }
  return rows;
}

/** The batch's page: every entry with its verdict so far, totals, and the charts' counts. */
export function toBatchView(key: string, batch: BatchFolder, state: BatchState): BatchView {
  const portNames = new Map(batch.ports.map((p) => [p.name, p]));
  const byName = new Map<string, EntryResultView>();
  for (const r of state.results.values()) byName.set(r.name ?? r.source, r);
  const rows: BatchRowView[] = [];
  const seen = new Set<string>();
  const inFlight = (name: string): boolean => {
    if (!state.running || state.lockedAtMs === null) return false;
    const port = portNames.get(name);
    // a batch starts a port by creating its folder and port.log: one written since the lock
    return !!port?.entries.some(
      (e) => (e.name === 'port.log' || e.name === 'build.log') && e.mtimeMs >= (state.lockedAtMs as number),
    );
  };
  const rowOf = (line: number | null, name: string): BatchRowView => {
    const result = byName.get(name) ?? null;
    const verdict: PortVerdict = result ? result.verdict : inFlight(name) ? 'running' : 'unfinished';
    return {
      line: result?.line ?? line,
      name,
      port: portNames.has(name) ? (key === '.' ? name : `${key}/${name}`) : null,
      verdict,
      category: result?.errorCategory ?? null,
      buildSystem: result?.buildSystem ?? null,
      wallMs: result?.wallMs ?? null,
      message: result?.message ?? null,
    };
  };
  for (const { line, name } of state.listed) {
    if (seen.has(name)) continue;
    seen.add(name);
    rows.push(rowOf(line, name));
  }
  // results (and running ports) a summary does not list yet
  for (const name of [...byName.keys(), ...portNames.keys()]) {
    if (seen.has(name)) continue;
    seen.add(name);
    rows.push(rowOf(null, name));
  }
  rows.sort(
    (a, b) =>
      (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) ||
      a.name.localeCompare(b.name),
  );
  const finished = rows.filter((r) => r.verdict !== 'running' && r.verdict !== 'unfinished');
  return {
    key,
    running: state.running,
    holder: state.holder,
    entries: rows.length,
    finished: finished.length,
    verified: finished.filter((r) => r.verdict === 'verified').length,
    failed: finished.filter((r) => r.verdict !== 'verified').length,
    inFlight: rows.filter((r) => r.verdict === 'running').length,
    rows,
    byCategory: countVerdicts(
      finished,
      (r) => r.category ?? (r.verdict === 'verified' ? '(no error)' : '(none recorded)'),
    ),
    byBuildSystem: countVerdicts(finished, (r) => r.buildSystem ?? '(none)'),
    updatedAt: state.updatedAt,
  };
}

/** Verdicts counted per label, the label with most entries first. */
export function countVerdicts<T extends { verdict: PortVerdict }>(
  rows: readonly T[],
  label: (row: T) => string,
): VerdictCounts[] {
  const groups = new Map<string, Partial<Record<PortVerdict, number>>>();
  for (const row of rows) {
    const name = label(row);
    const counts = groups.get(name) ?? {};
    counts[row.verdict] = (counts[row.verdict] ?? 0) + 1;
    groups.set(name, counts);
  }
  const total = (c: Partial<Record<PortVerdict, number>>) =>
    Object.values(c).reduce((a, b) => a + (b ?? 0), 0);
  return [...groups]
    .map(([l, counts]) => ({ label: l, counts }))
    .sort((a, b) => total(b.counts) - total(a.counts) || a.label.localeCompare(b.label));
}
