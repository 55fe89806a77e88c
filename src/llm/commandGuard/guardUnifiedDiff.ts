import { posix } from 'node:path';
import type { CommandVerdict } from './guardCommand.ts';

const HEADER = /^(?:--- |\+\+\+ )(.*)$/;
const GIT_HEADER = /^diff --git (\S+) (\S+)$/;
const GIT_PATH_LINE = /^(?:rename|copy) (?:from|to) (.*)$/;
const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const SYMLINK_MODE = /^(?:new file mode|new mode|old mode) 120000$/;

/**
 * Checks a unified diff the fixer proposes before `git apply` sees it: every path stays inside
 * the source tree (relative, no `..`, not `.git/`), and it creates no symbolic links (a link to
 * /native or / would let a later build step write outside the tree). Binary patches are refused:
 * they cannot be reviewed.
 */
export function guardUnifiedDiff(diff: string): CommandVerdict {
  const paths: string[] = [];
  let hunks = 0;
  // Lines left in the current hunk: its content may itself start with "--- " or "+++ ".
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of diff.replace(/\r\n/g, '\n').split('\n')) {
    if (oldLeft > 0 || newLeft > 0) {
      if (line.startsWith('\\')) continue;
      if (!line.startsWith('+')) oldLeft--;
      if (!line.startsWith('-')) newLeft--;
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk) {
      hunks++;
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      continue;
    }
    if (SYMLINK_MODE.test(line)) return { allowed: false, reason: 'the patch creates a symbolic link' };
    if (line.startsWith('GIT binary patch') || /^Binary files .* differ$/.test(line)) {
      return { allowed: false, reason: 'the patch changes a binary file' };
    }
    const git = GIT_HEADER.exec(line);
    if (git) {
      paths.push(stripPrefix(git[1] ?? ''), stripPrefix(git[2] ?? ''));
      continue;
    }
    const header = HEADER.exec(line);
    if (header) {
      // "--- a/file\t2026-11-30 12:00:00" — the timestamp after a tab is not part of the path.
      paths.push(stripPrefix(unquote((header[1] ?? '').split('\t')[0] ?? '')));
      continue;
    }
    const renamed = GIT_PATH_LINE.exec(line);
    if (renamed) paths.push(unquote(renamed[1] ?? ''));
  }
  if (hunks === 0 && paths.length === 0) return { allowed: false, reason: 'not a unified diff' };
  for (const path of paths) {
    if (path === '/dev/null' || path === '') continue;
    if (path.startsWith('/')) return { allowed: false, reason: `the patch names an absolute path (${path})` };
    const normal = posix.normalize(path);
    if (normal === '..' || normal.startsWith('../')) {
      return { allowed: false, reason: `the patch reaches outside the source tree (${path})` };
    }
    if (normal === '.git' || normal.startsWith('.git/')) {
      return { allowed: false, reason: `the patch changes git's own files (${path})` };
    }
  }
  return { allowed: true };
}

function stripPrefix(path: string): string {
  const unquoted = unquote(path);
  return /^[ab]\//.test(unquoted) ? unquoted.slice(2) : unquoted;
}

function unquote(path: string): string {
  const trimmed = path.trim();
  return trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}
