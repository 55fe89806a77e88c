import { existsSync } from 'node:fs';
import { readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';

/** Generated autotools files, in the order make expects them to be newer than their inputs. */
const GENERATED_ORDER: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['aclocal.m4']),
  new Set(['configure', 'config.h.in', 'config.in', 'Makefile.in', 'stamp-h.in']),
];

/**
 * A git checkout gives files their checkout time in no particular order, so make may think
 * `Makefile.in` is older than `aclocal.m4` and try to run automake (of a version the sandbox does
 * not have). Give every file one time and the generated autotools files later ones, in order, so
 * a shipped configure is used as shipped. Only for autotools trees; touches no content.
 */
export async function normalizeAutotoolsTimestamps(
  root: string,
  base = new Date(Date.now() - 3_600_000),
): Promise<boolean> {
  if (
    !existsSync(join(root, 'configure.ac')) &&
    !existsSync(join(root, 'configure.in')) &&
    !(await hasNested(root))
  )
    return false;
  await walk(root, async (path, name) => {
    const rank = GENERATED_ORDER.findIndex((set) => set.has(name));
    const time = new Date(base.getTime() + (rank + 1) * 2000);
    await utimes(path, time, time).catch(() => {});
  });
  return true;
}

async function hasNested(root: string): Promise<boolean> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  return entries.some(
    (e) =>
      e.isDirectory() &&
      (existsSync(join(root, e.name, 'configure.ac')) || existsSync(join(root, e.name, 'configure.in'))),
  );
}

async function walk(dir: string, onFile: (path: string, name: string) => Promise<void>): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== '.git') await walk(path, onFile);
    } else if (e.isFile()) {
      await onFile(path, e.name);
    }
  }
}
