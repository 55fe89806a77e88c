import { lstat, readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { decideVerdict, type Verdict } from './decideVerdict.ts';
import { type ElfFacts, inspectFile, looksBinaryObject } from './inspectFile.ts';

export interface VerifyReport extends Verdict {
  files: ElfFacts[];
  /** Files in walked folders that are neither ELF nor `ar` archives. */
  skipped: number;
}

/** Folders never descended into: version control metadata holds no build outputs. */
const SKIP_DIRS = new Set(['.git', '.hg', '.svn']);

/**
 * Checks files and folders (walked recursively, symbolic links not followed). A file named
 * explicitly is always reported; in folders only ELF files and archives are.
 */
export async function verifyPaths(paths: readonly string[]): Promise<VerifyReport> {
  const files: ElfFacts[] = [];
  const explicit = new Set<string>();
  let skipped = 0;

  // A thin archive's members are read from inside the folder that was asked for, or for a file
  // named alone, from inside the current folder (or its own folder when it is elsewhere, or the
  // current folder is the file system's root).
  const walk = async (dir: string, root: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      files.push(unreadable(dir, error));
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) await walk(path, root);
      } else if (entry.isFile()) {
        let candidate = false;
        try {
          candidate = await looksBinaryObject(path);
        } catch (error) {
          files.push(unreadable(path, error));
          continue;
        }
        if (candidate) files.push(await inspectFile(path, { root }));
        else skipped++;
      }
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
    if (stat.isDirectory()) await walk(path, path);
    else {
      explicit.add(path);
      const cwd = process.cwd();
      const underCwd = cwd !== '/' && !relative(cwd, resolve(path)).startsWith('..');
      files.push(await inspectFile(path, { root: underCwd ? cwd : dirname(path) }));
    }
  }
  return { ...decideVerdict(files, { explicit }), files, skipped };
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
