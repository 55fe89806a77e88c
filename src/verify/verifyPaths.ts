import { lstat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { walkConfined } from '../fs/index.ts';
import { decideVerdict, type Verdict } from './decideVerdict.ts';
import { type ElfFacts, inspectFile, inspectFileIn, looksBinaryObject } from './inspectFile.ts';

export interface VerifyReport extends Verdict {
  files: ElfFacts[];
  /** Files in walked folders that are neither ELF nor `ar` archives. */
  skipped: number;
  /** Symbolic links in walked folders: never followed (a build may plant `dest -> /`). */
  links: number;
}

/** Folders never descended into: version control metadata holds no build outputs. */
const SKIP_DIRS = new Set(['.git', '.hg', '.svn']);

/**
 * Checks files and folders. A path named explicitly is always reported (a link named on the
 * command line is the user's choice and is followed). Folders are walked without following a
 * symbolic link, and their files are read inside the folder only (see walkConfined); only ELF
 * files and archives are reported from them.
 */
export async function verifyPaths(paths: readonly string[]): Promise<VerifyReport> {
  const files: ElfFacts[] = [];
  const explicit = new Set<string>();
  let skipped = 0;
  let links = 0;

  // A thin archive's members are read from inside the folder that was asked for, or for a file
  // named alone, from inside the current folder (or its own folder when it is elsewhere, or the
  // current folder is the file system's root).
  const walk = async (dir: string): Promise<void> => {
    let entries: ReturnType<typeof walkConfined>['entries'];
    try {
      entries = walkConfined(dir, { head: 8, skipDir: (name) => SKIP_DIRS.has(name) }).entries;
    } catch (error) {
      files.push(unreadable(dir, error));
      return;
    }
    for (const entry of entries) {
      if (entry.type === 'link') links++;
      if (entry.type !== 'file') continue;
      const path = join(dir, entry.path);
      if (!entry.head) {
        files.push(unreadable(path, new Error('could not be opened as a regular file')));
        continue;
      }
      if (looksBinaryObject(entry.head)) files.push(await inspectFileIn(dir, entry.path, path));
      else skipped++;
    }
  };

  for (const path of paths) {
    let stat: import('node:fs').Stats;
    try {
      stat = await lstat(path);
    } catch (error) {
      explicit.add(path);
      files.push(unreadable(path, error));
      continue;
    }
    if (stat.isDirectory()) await walk(path);
    else {
      explicit.add(path);
      const cwd = process.cwd();
      const underCwd = cwd !== '/' && !relative(cwd, resolve(path)).startsWith('..');
      files.push(await inspectFile(path, { root: underCwd ? cwd : dirname(path) }));
    }
  }
  return { ...decideVerdict(files, { explicit }), files, skipped, links };
}

function unreadable(path: string, error: unknown): ElfFacts {
  const code = (error as NodeJS.ErrnoException)?.code;
  return {
    path,
    kind: 'unreadable',
    machine: null,
    bits: null,
    endian: null,
    type: 'unreadable',
    abi: null,
    interpreter: null,
    linkage: null,
    pie: null,
    floatAbi: null,
    rvc: null,
    error:
      code === 'ENOENT'
        ? 'no such file or directory'
        : error instanceof Error
          ? error.message
          : String(error),
  };
}
