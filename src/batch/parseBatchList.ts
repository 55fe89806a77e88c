import { isAbsolute } from 'node:path';
import { isSourceError, parseSource } from '../sources/index.ts';
import type { BatchEntry } from './BatchEntry.ts';

/** A `#` at the start of a line or after white space starts a comment (a URL may hold a `#`). */
const COMMENT = /(^|\s)#.*$/;

/**
 * Reads a batch LIST: one SOURCE per line, `#` comments, blank lines ignored. Every entry is
 * checked with the port's own SOURCE rules; an invalid one is kept as an entry with its reason
 * (the batch reports it as failed and goes on). Two entries of one package name would share an
 * output folder, so the later one is invalid too.
 */
export function parseBatchList(text: string, baseDir: string): BatchEntry[] {
  const entries: BatchEntry[] = [];
  const bySource = new Map<string, number>();
  const byName = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const written = raw.replace(COMMENT, '').trim();
    if (written === '') return;
    let source = written;
    let name: string | null = null;
    let invalid: string | null = null;
    try {
      const spec = parseSource(written, baseDir);
      name = spec.name;
      if ((spec.kind === 'directory' || spec.kind === 'tarball') && !isAbsolute(written)) source = spec.path;
    } catch (error) {
      if (!isSourceError(error)) throw error;
      invalid = error.message;
    }
    const sameSource = bySource.get(source);
    if (invalid === null && sameSource !== undefined) {
      invalid = `the same SOURCE as line ${sameSource}`;
    } else if (invalid === null && name !== null && byName.has(name)) {
      invalid = `the same package name '${name}' as line ${byName.get(name)} (one output folder per name)`;
    }
    const key = bySource.has(source) ? `${source}@${line}` : source;
    if (!bySource.has(source)) bySource.set(source, line);
    if (invalid === null && name !== null) byName.set(name, line);
    entries.push({ key, line, source, name, invalid });
  });
  return entries;
}
