import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { COPY_CHUNK, isZeroChunk } from '../../fs/index.ts';

/** What a copy out refused or dropped, for the caller's log. */
export interface CopyOutReport {
  files: number;
  skipped: string[];
  /** Apparent size of the regular files copied (holes counted). */
  bytes: number;
}

const MAX_ENTRIES = 500_000;
/** One copy out holds at most this much, by apparent size: a sparse terabyte is refused, not written. */
export const MAX_COPY_OUT_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * Copies a tree the sandbox wrote to a host folder as rvport's own files: folders, regular files
 * (their content read through a descriptor opened without following links, modes without
 * setuid, setgid or sticky bits) and symbolic links kept as links (never followed here).
 * Devices, FIFOs and sockets are skipped and reported. Chunks of zeros stay holes, and the
 * apparent size of all files together is held against `maxBytes`: past it the copy is refused.
 */
export async function copyOutTree(
  from: string,
  to: string,
  options: { maxBytes?: number } = {},
): Promise<CopyOutReport> {
  const report: CopyOutReport = { files: 0, skipped: [], bytes: 0 };
  await copyEntry(from, to, '', report, options.maxBytes ?? MAX_COPY_OUT_BYTES);
  return report;
}

async function copyEntry(
  from: string,
  to: string,
  rel: string,
  report: CopyOutReport,
  maxBytes: number,
): Promise<void> {
  if (report.files + report.skipped.length > MAX_ENTRIES)
    throw new Error(`more than ${MAX_ENTRIES} entries to copy out`);
  const info = await lstat(from);
  if (info.isSymbolicLink()) {
    await symlink(await readlink(from), to);
    report.files++;
  } else if (info.isDirectory()) {
    await mkdir(to, { mode: (info.mode & 0o777) | 0o700 });
    for (const name of await readdir(from))
      await copyEntry(join(from, name), join(to, name), join(rel, name), report, maxBytes);
  } else if (info.isFile()) {
    await copyRegular(from, to, info.mode & 0o777, report, maxBytes, rel || '.');
    report.files++;
  } else {
    report.skipped.push(rel || '.');
  }
}

async function copyRegular(
  from: string,
  to: string,
  mode: number,
  report: CopyOutReport,
  maxBytes: number,
  rel: string,
): Promise<void> {
  const source = await open(from, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stats = await source.stat();
    if (!stats.isFile()) throw new Error(`${from} is not a regular file`);
    if (report.bytes + stats.size > maxBytes) throw overLimit(rel, maxBytes);
    const target = await open(
      to,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode,
    );
    try {
      const buffer = Buffer.allocUnsafe(COPY_CHUNK);
      let at = 0;
      for (;;) {
        const { bytesRead } = await source.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        if (report.bytes + bytesRead > maxBytes) throw overLimit(rel, maxBytes);
        if (!isZeroChunk(buffer, bytesRead)) await target.write(buffer, 0, bytesRead, at);
        at += bytesRead;
        report.bytes += bytesRead;
      }
      await target.truncate(at);
      await target.chmod(mode);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

function overLimit(rel: string, maxBytes: number): Error {
  return new Error(
    `${rel}: the copy out passes its limit of ${maxBytes} bytes (apparent size, holes counted); refused`,
  );
}
