import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readFileConfined } from '../fs/index.ts';

/** What a packaging patch holds and what of the packaging it left out, and why. */
export interface PackagingPatch {
  /** A git diff that creates `debian/…` in a tree; empty when no file could go in. */
  diff: string;
  files: string[];
  leftOut: { path: string; reason: string }[];
}

/** debian/ files are text of a few kilobytes; a larger one is not packaging a build needs. */
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_FILES = 2000;
/** Names git writes unquoted and every tool reads alike. */
const PLAIN_NAME = /^[A-Za-z0-9_.+@~-]+$/;

/**
 * Debian's packaging (the kept `debian/` folder) as a patch that adds it to the upstream tree, so
 * that a build can run `debian/rules` and a replay or a cached recipe gets the same folder from
 * patches/. The quilt patches are left out (they are the port's first patches already), and so
 * is what a patch cannot carry safely: symbolic links (never followed), binary and oversized
 * files, names that need quoting. Files are read confined to the folder, through no link.
 */
export function packagingPatch(
  dir: string,
  /** Files (by path under debian/) whose text goes into the patch rewritten. */
  rewrite: Readonly<Record<string, (text: string) => string>> = {},
): PackagingPatch {
  const files: string[] = [];
  const leftOut: PackagingPatch['leftOut'] = [];
  const parts: string[] = [];
  const walk = (rel: string) => {
    const entries = readdirSync(rel ? join(dir, rel) : dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (path === 'patches' && entry.isDirectory()) continue;
      if (!PLAIN_NAME.test(entry.name)) {
        leftOut.push({ path, reason: 'a name that needs quoting' });
      } else if (entry.isSymbolicLink()) {
        leftOut.push({ path, reason: 'a symbolic link' });
      } else if (entry.isDirectory()) {
        walk(path);
      } else if (!entry.isFile()) {
        leftOut.push({ path, reason: 'not a regular file' });
      } else if (files.length >= MAX_FILES) {
        leftOut.push({ path, reason: `more than ${MAX_FILES} files` });
      } else {
        const added = fileDiff(dir, path, rewrite[path]);
        if ('reason' in added) leftOut.push({ path, reason: added.reason });
        else {
          files.push(path);
          parts.push(added.diff);
        }
      }
    }
  };
  walk('');
  return { diff: parts.join(''), files, leftOut };
}

function fileDiff(
  dir: string,
  path: string,
  rewrite?: (text: string) => string,
): { diff: string } | { reason: string } {
  let data: Buffer;
  try {
    data = readFileConfined(dir, path, { maxBytes: MAX_FILE_BYTES });
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
  if (data.length === 0) return { reason: 'empty' };
  if (data.includes(0)) return { reason: 'binary' };
  const text = rewrite ? rewrite(data.toString('utf8')) : data.toString('utf8');
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  const mode = lstatSync(join(dir, path)).mode & 0o111 ? '100755' : '100644';
  const name = `debian/${path}`;
  return {
    diff: [
      `diff --git a/${name} b/${name}`,
      `new file mode ${mode}`,
      '--- /dev/null',
      `+++ b/${name}`,
      `@@ -0,0 +1,${lines.length} @@`,
      ...lines.map((line) => `+${line}`),
      ...(endsWithNewline ? [] : ['\\ No newline at end of file']),
      '',
    ].join('\n'),
  };
}
