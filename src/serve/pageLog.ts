import { closeSync, readSync } from 'node:fs';
import { openConfined } from '../fs/index.ts';
import { ServeError } from './ServeError.ts';
import type { LogPageView } from './ServeViews.ts';

/** Lines of a log shown at once. */
export const LOG_PAGE_LINES = 500;
/** A line longer than this is shown cut (a build can print megabytes without a newline). */
export const MAX_LINE_BYTES = 8 * 1024;
/** Read from a log at a time: the whole file is never in memory, however large it is. */
export const LOG_CHUNK_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;

/** What marks the failing command in build.log: its header line and its first error line. */
export interface ErrorMark {
  command: string | null;
  errorLine: string | null;
}

/** Where each page starts in a log, and the line of the failing command's error. */
export interface LogIndex {
  size: number;
  mtimeMs: number;
  totalLines: number;
  /** Byte offset of the first line of page N+1 at N. */
  pageStarts: number[];
  errorLine: number | null;
}

/**
 * Indexes a log in one pass of bounded chunks: the offsets of its pages, and the line to mark.
 * A port logs each command under `### [PHASE] (in DIR) $ COMMAND` and closes it with `### exit N`;
 * the mark is the first line equal to the recorded error line after the last header of the
 * failing command, else that header (else the last line equal to the error line anywhere).
 */
export function indexLog(
  fd: number,
  size: number,
  mtimeMs: number,
  mark: ErrorMark,
  pageLines = LOG_PAGE_LINES,
): LogIndex {
  const pageStarts = [0];
  const buffer = Buffer.alloc(Math.min(LOG_CHUNK_BYTES, Math.max(size, 1)));
  const headerEnd = mark.command ? Buffer.from(`$ ${mark.command}`) : null;
  const wanted = mark.errorLine?.trim() || null;
  let line = 0; // lines completed so far
  let head = Buffer.alloc(0); // the current line's first bytes (at most MAX_LINE_BYTES)
  let lineStart = 0;
  let header: number | null = null;
  let afterHeader: number | null = null;
  let anywhere: number | null = null;
  const endLine = (nextStart: number) => {
    const text = head.toString('utf8');
    line += 1;
    if (
      headerEnd &&
      text.startsWith('### [') &&
      head.subarray(head.length - headerEnd.length).equals(headerEnd)
    ) {
      header = line;
      afterHeader = null;
    } else if (wanted && text.trim() === wanted) {
      anywhere = line;
      if (header !== null && afterHeader === null) afterHeader = line;
    }
    head = Buffer.alloc(0);
    lineStart = nextStart;
    if (line % pageLines === 0) pageStarts.push(nextStart);
  };
  let position = 0;
  for (;;) {
    const read = readSync(fd, buffer, 0, buffer.length, position);
    if (read === 0) break;
    let from = 0;
    while (from < read) {
      const at = buffer.indexOf(NEWLINE, from);
      const end = at === -1 || at >= read ? read : at;
      if (head.length < MAX_LINE_BYTES)
        head = Buffer.concat([
          head,
          buffer.subarray(from, Math.min(end, from + MAX_LINE_BYTES - head.length)),
        ]);
      if (end === read) break;
      endLine(position + end + 1);
      from = end + 1;
    }
    position += read;
    if (position >= size) break; // a log still growing is read up to the size stat gave
  }
  if (position > lineStart) endLine(position);
  // a page that would start at the very end holds nothing
  if (pageStarts.length > 1 && pageStarts.at(-1) === position && line % pageLines === 0) pageStarts.pop();
  return { size, mtimeMs, totalLines: line, pageStarts, errorLine: afterHeader ?? header ?? anywhere };
}

/** The lines of one page, each cut at MAX_LINE_BYTES, read from its start offset only. */
export function readLogPage(fd: number, index: LogIndex, page: number, pageLines = LOG_PAGE_LINES): string[] {
  const start = index.pageStarts[page - 1];
  if (start === undefined)
    throw new ServeError('not-found', `page ${page} is out of range (1 to ${index.pageStarts.length})`);
  const end = index.pageStarts[page] ?? index.size;
  const lines: string[] = [];
  const buffer = Buffer.alloc(Math.min(LOG_CHUNK_BYTES, Math.max(end - start, 1)));
  let head = Buffer.alloc(0);
  let cut = false;
  let position = start;
  const push = () => {
    lines.push(head.toString('utf8') + (cut ? ' …(line cut)' : ''));
    head = Buffer.alloc(0);
    cut = false;
  };
  while (position < end && lines.length < pageLines) {
    const read = readSync(fd, buffer, 0, Math.min(buffer.length, end - position), position);
    if (read === 0) break;
    let from = 0;
    while (from < read && lines.length < pageLines) {
      const at = buffer.indexOf(NEWLINE, from);
      const stop = at === -1 || at >= read ? read : at;
      const room = MAX_LINE_BYTES - head.length;
      if (stop - from > room) cut = true;
      if (room > 0) head = Buffer.concat([head, buffer.subarray(from, from + Math.min(room, stop - from))]);
      if (stop === read) break;
      push();
      from = stop + 1;
    }
    position += read;
  }
  if ((head.length > 0 || cut) && lines.length < pageLines) push();
  return lines;
}

/**
 * Pages of the logs of an output folder, each opened confined to it (src/fs). Indexes are kept by
 * file, size and modification time: a page of a log that does not change is one seek and one read.
 */
export class LogPager {
  private readonly indexes = new Map<string, LogIndex>();

  constructor(
    readonly root: string,
    readonly pageLines = LOG_PAGE_LINES,
  ) {}

  page(rel: string, page: number, mark: ErrorMark): LogPageView {
    const { fd, stats } = openConfined(this.root, rel);
    try {
      const key = `${rel}\0${mark.command ?? ''}\0${mark.errorLine ?? ''}`;
      let index = this.indexes.get(key);
      if (!index || index.size !== stats.size || index.mtimeMs !== stats.mtimeMs) {
        index = indexLog(fd, stats.size, stats.mtimeMs, mark, this.pageLines);
        this.indexes.set(key, index);
      }
      const pages = Math.max(1, index.pageStarts.length);
      if (page > pages)
        throw new ServeError(
          'not-found',
          `page ${page} is out of range: ${rel} has ${pages} page${pages === 1 ? '' : 's'}`,
        );
      return {
        file: rel.split('/').at(-1) as string,
        page,
        pages,
        pageSize: this.pageLines,
        firstLine: (page - 1) * this.pageLines + 1,
        totalLines: index.totalLines,
        lines: index.size === 0 ? [] : readLogPage(fd, index, page, this.pageLines),
        errorLine: index.errorLine,
      };
    } finally {
      closeSync(fd);
    }
  }
}
