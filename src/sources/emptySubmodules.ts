import { readTextConfined, walkConfined } from '../fs/index.ts';

/** A submodule `.gitmodules` declares. */
export interface Submodule {
  name: string;
  /** Relative to the tree, `/`-separated, without a trailing slash. */
  path: string;
  /** As written in `.gitmodules`, or null when there is none (or it is not printable). */
  url: string | null;
}

/** More than this many sections in a `.gitmodules` are not read (a hostile file can be huge). */
const MAX_SUBMODULES = 200;
const MAX_GITMODULES_BYTES = 256 * 1024;

/** A path a tree may have: relative, no `..`, no white space or control characters. */
function safePath(value: string): string | null {
  const path = value.replace(/\/+$/, '');
  if (path === '' || path.length > 400 || path.startsWith('/') || /[\s\p{Cc}]/u.test(path)) return null;
  if (path.split('/').some((part) => part === '' || part === '.' || part === '..')) return null;
  return path;
}

/**
 * The submodules of a `.gitmodules` text, in its order. The file is the repository's, so only
 * well-formed relative paths are kept and a URL is kept only when it is printable (it ends up in
 * a report a person reads).
 */
export function parseGitmodules(text: string): Submodule[] {
  const found: Submodule[] = [];
  let current: { name: string; path: string | null; url: string | null } | null = null;
  const flush = () => {
    if (current?.path) found.push({ name: current.name, path: current.path, url: current.url });
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const section = /^\[\s*submodule\s+"([^"]{1,200})"\s*\]$/.exec(line);
    if (section) {
      flush();
      if (found.length >= MAX_SUBMODULES) return found;
      current = { name: section[1] as string, path: null, url: null };
      continue;
    }
    if (/^\[/.test(line)) {
      flush();
      current = null;
      continue;
    }
    const entry = /^(path|url)\s*=\s*(.*)$/.exec(line);
    if (!current || !entry) continue;
    const value = (entry[2] as string).replace(/^"(.*)"$/, '$1').trim();
    if (entry[1] === 'path') current.path = safePath(value);
    else current.url = value.length <= 400 && /^[\x21-\x7e]+$/.test(value) ? value : null;
  }
  flush();
  return found;
}

/**
 * The submodules of a tree whose folder is missing or empty: gitlinks whose content was never
 * fetched (a clone without `--recurse-submodules`, a snapshot). The tree may be hostile: the
 * file is read confined to it, and a folder is only listed, never followed out of the tree.
 */
export function emptySubmodules(root: string): Submodule[] {
  const read = readTextConfined(root, '.gitmodules', { maxBytes: MAX_GITMODULES_BYTES });
  if (read.text === null) return [];
  return parseGitmodules(read.text).filter((sub) => {
    try {
      return walkConfined(root, { from: sub.path, maxDepth: 0, maxEntries: 1 }).entries.length === 0;
    } catch {
      // the folder is missing (or not a folder): the content is not there either
      return true;
    }
  });
}
