import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, symlink } from 'node:fs/promises';
import { join } from 'node:path';

/** What a copy out refused or dropped, for the caller's log. */
export interface CopyOutReport {
  files: number;
  skipped: string[];
}

const MAX_ENTRIES = 500_000;

/**
 * Copies a tree the sandbox wrote to a host folder as rvport's own files: folders, regular files
 * (their content read through a descriptor opened without following links, modes without
 * setuid, setgid or sticky bits) and symbolic links kept as links (never followed here).
 * Devices, FIFOs and sockets are skipped and reported.
 */
export async function copyOutTree(from: string, to: string): Promise<CopyOutReport> {
  const report: CopyOutReport = { files: 0, skipped: [] };
  await copyEntry(from, to, '', report);
  return report;
}

async function copyEntry(from: string, to: string, rel: string, report: CopyOutReport): Promise<void> {
  if (report.files + report.skipped.length > MAX_ENTRIES)
    throw new Error(`more than ${MAX_ENTRIES} entries to copy out`);
  const info = await lstat(from);
  if (info.isSymbolicLink()) {
    await symlink(await readlink(from), to);
    report.files++;
  } else if (info.isDirectory()) {
    await mkdir(to, { mode: (info.mode & 0o777) | 0o700 });
    for (const name of await readdir(from))
      await copyEntry(join(from, name), join(to, name), join(rel, name), report);
  } else if (info.isFile()) {
    await copyRegular(from, to, info.mode & 0o777);
    report.files++;
  } else {
    report.skipped.push(rel || '.');
  }
}

async function copyRegular(from: string, to: string, mode: number): Promise<void> {
  const source = await open(from, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    if (!(await source.stat()).isFile()) throw new Error(`${from} is not a regular file`);
    const target = await open(
      to,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode,
    );
    try {
      const buffer = Buffer.allocUnsafe(1024 * 1024);
      for (;;) {
        const { bytesRead } = await source.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        await target.write(buffer, 0, bytesRead);
      }
      await target.chmod(mode);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
