import type { z } from 'zod';
import { type ConfinedEntry, isConfinedPathError, readFileConfined, walkConfined } from '../fs/index.ts';
import { isFolderName } from './requestPath.ts';

/** Files that make a folder a port's: what `rvport port` (or a batch starting it) writes first. */
export const PORT_MARKERS = [
  'state.json',
  'report.md',
  'build.log',
  'port.log',
  'escalation.md',
  'cache-entry.json',
];
export const BATCH_STATE = 'batch.json';
export const BATCH_LOCK = 'batch.lock';
export const BATCH_RESULTS = 'results.jsonl';
export const BATCH_SUMMARY = 'summary.md';
/** Folders looked at, at most, in the output folder and in each batch folder. */
export const MAX_FOLDERS = 5_000;
/** A state.json larger than this is not read (a port's is tens of KiB; a build cannot grow it). */
export const MAX_JSON_BYTES = 32 * 1024 * 1024;

export interface PortFolder {
  key: string;
  name: string;
  batch: string | null;
  /** The folder's own entries (not its subfolders'), as lstat saw them. */
  entries: ConfinedEntry[];
}

export interface BatchFolder {
  key: string;
  entries: ConfinedEntry[];
  ports: PortFolder[];
}

export interface FolderLayout {
  ports: PortFolder[];
  batches: BatchFolder[];
  problems: string[];
}

export type ReadResult<T> = { value: T; problem: null } | { value: null; problem: string | null };

/**
 * The output folder of `rvport port` and `rvport batch` (OUT/NAME/ per port; OUT/batch.json,
 * results.jsonl, summary.md for a batch), possibly with batch folders one level down
 * (OUT/BATCH/NAME/). Everything in it is read confined to it (src/fs): no symbolic link is
 * followed out of it, folders that are links are not entered, files are read with a size limit.
 * Parsed JSON is kept by path, size and modification time, so a dashboard that polls does not
 * parse every state.json again.
 */
export class OutputFolder {
  private readonly cache = new Map<string, { stamp: string; value: unknown }>();

  constructor(readonly root: string) {}

  /** The ports and batches, found again at every call (a running batch adds folders). */
  layout(): FolderLayout {
    const problems: string[] = [];
    const top = this.list('.', problems);
    const ports: PortFolder[] = [];
    const batches: BatchFolder[] = [];
    const topBatch: BatchFolder | null = hasFile(top, BATCH_STATE)
      ? { key: '.', entries: top, ports: [] }
      : null;
    if (topBatch) batches.push(topBatch);
    for (const dir of folders(top, problems)) {
      const entries = this.list(dir.name, problems);
      if (hasFile(entries, BATCH_STATE)) {
        const batch: BatchFolder = { key: dir.name, entries, ports: [] };
        for (const sub of folders(entries, problems)) {
          const own = this.list(`${dir.name}/${sub.name}`, problems);
          if (isPortFolder(own))
            batch.ports.push({
              key: `${dir.name}/${sub.name}`,
              name: sub.name,
              batch: dir.name,
              entries: own,
            });
        }
        batches.push(batch);
        ports.push(...batch.ports);
      } else if (isPortFolder(entries)) {
        const port = { key: dir.name, name: dir.name, batch: topBatch ? '.' : null, entries };
        ports.push(port);
        topBatch?.ports.push(port);
      }
    }
    return { ports, batches, problems };
  }

  /** A folder's own entries (depth 0), or none when it cannot be listed. */
  list(rel: string, problems: string[]): ConfinedEntry[] {
    try {
      const { entries, truncated } = walkConfined(this.root, {
        ...(rel === '.' ? {} : { from: rel }),
        maxDepth: 0,
        maxEntries: MAX_FOLDERS * 4,
      });
      if (truncated) problems.push(`${rel}: more than ${MAX_FOLDERS * 4} entries; the rest is not shown`);
      return entries;
    } catch (error) {
      problems.push(describe(error));
      return [];
    }
  }

  /** A JSON file checked against `schema`; null with a problem when it is not there or not valid. */
  readJson<T>(rel: string, schema: z.ZodType<T>, entry?: ConfinedEntry): ReadResult<T> {
    const stamp = entry ? `${entry.size}:${entry.mtimeMs}` : null;
    const cached = stamp ? this.cache.get(rel) : undefined;
    if (cached && cached.stamp === stamp) return { value: cached.value as T, problem: null };
    const text = this.readText(rel, MAX_JSON_BYTES);
    if (text.value === null) return text;
    let json: unknown;
    try {
      json = JSON.parse(text.value);
    } catch (error) {
      return { value: null, problem: `${rel} is not JSON (${(error as Error).message.slice(0, 200)})` };
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) return { value: null, problem: `${rel} is not what rvport writes there` };
    if (stamp) this.cache.set(rel, { stamp, value: parsed.data });
    return { value: parsed.data, problem: null };
  }

  /** A text file of at most `maxBytes`; null (no problem) when it is not there. */
  readText(rel: string, maxBytes: number): ReadResult<string> {
    try {
      return { value: readFileConfined(this.root, rel, { maxBytes }).toString('utf8'), problem: null };
    } catch (error) {
      if (isConfinedPathError(error) && error.code === 'not-found') return { value: null, problem: null };
      return { value: null, problem: describe(error) };
    }
  }
}

export function hasFile(entries: readonly ConfinedEntry[], name: string): boolean {
  return entries.some((e) => e.name === name && e.type === 'file');
}

export function entryOf(entries: readonly ConfinedEntry[], name: string): ConfinedEntry | undefined {
  return entries.find((e) => e.name === name && e.type === 'file');
}

function isPortFolder(entries: readonly ConfinedEntry[]): boolean {
  return PORT_MARKERS.some((m) => hasFile(entries, m));
}

/** Subfolders with a name a port or batch can have; links to folders are not folders here. */
function folders(entries: readonly ConfinedEntry[], problems: string[]): ConfinedEntry[] {
  const dirs = entries.filter((e) => e.type === 'directory' && isFolderName(e.name));
  if (dirs.length > MAX_FOLDERS) problems.push(`more than ${MAX_FOLDERS} folders; the rest is not shown`);
  return dirs.slice(0, MAX_FOLDERS);
}

export function describe(error: unknown): string {
  if (isConfinedPathError(error)) return error.message;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code ? `cannot read: ${code}` : `cannot read: ${(error as Error)?.message ?? String(error)}`;
}
