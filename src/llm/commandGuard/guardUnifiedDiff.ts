/**
 * A unified diff read the way `git apply` reads it, to check what it would do before it does it.
 * Every path must stay inside the source tree (relative, no `..`, no `.git` component in any
 * spelling), and the diff may not create or change symbolic links, submodules, binary files or
 * file modes. Every line outside a hunk body is checked, whether git would read it as a header
 * or skip it as garbage, so nothing a hunk's header hides escapes the check.
 */

export type DiffVerdict =
  | {
      allowed: true;
      /** The diff as checked, hunk headers carrying the counts the guard counted: apply this one. */
      diff: string;
      /** The files it names, relative to the tree (`a/`, `b/` prefixes removed). */
      paths: string[];
      /** Every name as written (with prefixes, and each word of names with spaces), for checks against the tree. */
      names: string[];
    }
  | { allowed: false; reason: string };

export interface DiffGuardOptions {
  /**
   * LLM diffs often carry wrong hunk counts and are applied with `git apply --recount`: a hunk is
   * then the run of body lines after its header, as git counts it, and the returned diff has
   * headers with those counts. Without it (patches rvport wrote itself: the recipe cache, a
   * resumed port) a header must agree with its body exactly, as plain `git apply` requires.
   */
  recount?: boolean;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;
/** Extended header lines git reads after `diff --git` (apply.c's table). */
const GIT_HEADER_LINE =
  /^(--- |\+\+\+ |old mode |new mode |deleted file mode |new file mode |copy from |copy to |rename old |rename new |rename from |rename to |similarity index |dissimilarity index |index )/;
const PLAIN_FILE_MODES = new Set(['100644', '100755']);

class DiffRefused extends Error {}
function fail(reason: string): never {
  throw new DiffRefused(reason);
}

export function guardUnifiedDiff(diff: string, options: DiffGuardOptions = {}): DiffVerdict {
  try {
    return { allowed: true, ...readDiff(diff, options.recount ?? false) };
  } catch (error) {
    if (error instanceof DiffRefused) return { allowed: false, reason: error.message };
    throw error;
  }
}

function readDiff(diff: string, recount: boolean): { diff: string; paths: string[]; names: string[] } {
  const lines = diff.split('\n');
  // A trailing newline, and blank lines after the last hunk, are not content.
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  const out: string[] = [];
  const paths = new Set<string>();
  const names = new Set<string>();
  let files = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.startsWith('diff --git ')) {
      files++;
      checkPathField(line.slice('diff --git '.length), paths, names, true);
      out.push(line);
      i++;
      while (i < lines.length && GIT_HEADER_LINE.test(lines[i] as string)) {
        checkHeaderLine(lines[i] as string, paths, names);
        out.push(lines[i] as string);
        i++;
      }
      i = readHunks(lines, i, recount, out);
      continue;
    }
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ') && lines[i + 2]?.startsWith('@@ -')) {
      files++;
      checkHeaderLine(line, paths, names);
      checkHeaderLine(lines[i + 1] as string, paths, names);
      out.push(line, lines[i + 1] as string);
      i = readHunks(lines, i + 2, recount, out);
      continue;
    }
    if (line.startsWith('@@ -')) fail(`a hunk without a file header (${line.slice(0, 60)})`);
    // Anything else git skips as garbage; it is still checked, and left out of what is applied.
    checkHeaderLine(line, paths, names);
    i++;
  }
  if (files === 0) fail('not a unified diff');
  return { diff: `${out.join('\n')}\n`, paths: [...paths], names: [...names] };
}

/** Reads the hunks from `i`; returns the index after them. */
function readHunks(lines: readonly string[], start: number, recount: boolean, out: string[]): number {
  let i = start;
  while (i < lines.length && (lines[i] as string).startsWith('@@ -')) {
    const header = lines[i] as string;
    const m = HUNK.exec(header);
    if (!m) fail(`cannot read the hunk header ${JSON.stringify(header.slice(0, 60))}`);
    const [, oldStart, oldCount = '1', newStart, newCount = '1', rest] = m as RegExpExecArray;
    i++;
    const body: string[] = [];
    let oldLines = 0;
    let newLines = 0;
    if (recount) {
      // As `git apply --recount` counts: the run of body lines up to the next other line.
      while (i < lines.length && isBodyLine(lines[i] as string)) {
        const line = lines[i] as string;
        if (line[0] !== '+' && line[0] !== '\\') oldLines++;
        if (line[0] !== '-' && line[0] !== '\\') newLines++;
        body.push(line);
        i++;
      }
      if (oldLines === 0 && newLines === 0) fail(`the hunk ${header.slice(0, 60)} is empty`);
    } else {
      // As plain `git apply` reads: exactly the lines the header announces.
      let oldLeft = Number(oldCount);
      let newLeft = Number(newCount);
      while (oldLeft > 0 || newLeft > 0) {
        const line = lines[i];
        if (line === undefined || !isBodyLine(line) || line.startsWith('\\')) {
          if (line?.startsWith('\\ ')) {
            body.push(line);
            i++;
            continue;
          }
          fail(`the hunk header ${header.slice(0, 40)} announces more lines than the hunk has`);
        }
        if (line[0] !== '+') oldLeft--;
        if (line[0] !== '-') newLeft--;
        if (oldLeft < 0 || newLeft < 0)
          fail(`the hunk header ${header.slice(0, 40)} disagrees with its lines`);
        body.push(line);
        i++;
      }
      if (lines[i]?.startsWith('\\ ')) body.push(lines[i++] as string);
      const next = lines[i];
      const nextFileHeader = next?.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ');
      if (next !== undefined && /^[ +-]/.test(next) && !nextFileHeader) {
        fail(`the hunk after header ${header.slice(0, 40)} has more lines than the header says`);
      }
      oldLines = Number(oldCount);
      newLines = Number(newCount);
    }
    out.push(`@@ -${oldStart},${oldLines} +${newStart},${newLines} @@${rest}`, ...body);
  }
  return i;
}

/** The lines `git apply --recount` counts as a hunk's: context, removed, added, `\ No newline`. */
function isBodyLine(line: string): boolean {
  return line === '' || line[0] === ' ' || line[0] === '+' || line[0] === '-' || line[0] === '\\';
}

/** A header line (or a garbage line that looks like one): its mode and paths. */
function checkHeaderLine(line: string, paths: Set<string>, names: Set<string>): void {
  if (line.startsWith('GIT binary patch') || line.startsWith('Binary files ')) {
    fail('the patch changes a binary file, which cannot be reviewed');
  }
  if (/^(old|new) mode /.test(line)) fail(`the patch changes a file's mode (${line})`);
  const created = /^(new file|deleted file) mode (\S*)/.exec(line);
  if (created) checkMode(created[2] ?? '', line);
  // git reads a mode at the end of the index line as the file's mode (trailing \r and all).
  const index = /^index \S+ +(\S+)\s*$/.exec(line);
  if (index?.[1]) checkMode(index[1], line);
  const named =
    /^(?:--- |\+\+\+ |copy from |copy to |rename old |rename new |rename from |rename to )(.*)$/.exec(line);
  if (named) {
    const field =
      line.startsWith('--- ') || line.startsWith('+++ ') ? (named[1] ?? '').split('\t')[0] : named[1];
    checkPathField(field ?? '', paths, names, line.startsWith('--- ') || line.startsWith('+++ '));
  }
}

function checkMode(mode: string, line: string): void {
  if (mode === '120000') fail(`the patch creates or changes a symbolic link (${line})`);
  if (!PLAIN_FILE_MODES.has(mode))
    fail(`the patch uses file mode ${mode} (${line}); only plain files are allowed`);
}

/**
 * A path field: one quoted C string, or text that may hold spaces. Every whitespace-separated
 * token is checked as well as the whole, because git's own reading of an unquoted name with
 * spaces is a guess; `a/` and `b/` prefixes are stripped for the path recorded.
 */
function checkPathField(field: string, paths: Set<string>, seen: Set<string>, prefixed: boolean): void {
  const trimmed = field.trim();
  if (trimmed === '/dev/null') return;
  const names: string[] = [];
  if (trimmed.startsWith('"')) {
    let rest = trimmed;
    while (rest.startsWith('"')) {
      const { value, end } = unquoteC(rest);
      names.push(value);
      rest = rest.slice(end).trim();
    }
    if (rest) names.push(...rest.split(/\s+/));
  } else {
    names.push(trimmed, ...trimmed.split(/\s+/));
  }
  for (const name of names) {
    if (name === '/dev/null' || name === '') continue;
    checkPath(name);
    seen.add(name);
  }
  const first = names[0];
  if (first && first !== '/dev/null' && !/^diff /.test(first)) {
    const recorded = prefixed && /^[ab]\//.test(first) ? first.slice(2) : first;
    // `diff --git a/x b/x` names the file twice; the ---/+++ and rename lines name it once.
    if (!recorded.includes(' ')) paths.add(recorded);
  }
}

/** Unicode code points HFS+ ignores in names, so `.g\u200cit` is `.git` there. */
const IGNORABLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;

function checkPath(path: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\0-\x1f\x7f]/.test(path))
    fail(`the patch names a path with control characters (${JSON.stringify(path)})`);
  if (path.startsWith('/')) fail(`the patch names an absolute path (${path})`);
  for (const component of path.split(/[/\\]/)) {
    if (component === '..') fail(`the patch reaches outside the source tree (${path})`);
    const folded = component
      .replace(IGNORABLE, '')
      .toLowerCase()
      .replace(/[. ]+$/, '');
    if (folded === '.git' || folded === 'git~1') fail(`the patch changes git's own files (${path})`);
  }
}

/** A C-quoted name as git writes it (`"a/caf\303\251"`), and where it ends. */
function unquoteC(text: string): { value: string; end: number } {
  const bytes: number[] = [];
  const simple: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, '"': 34 };
  for (let i = 1; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"') return { value: Buffer.from(bytes).toString('utf8'), end: i + 1 };
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = text[i + 1] ?? '';
    if (/[0-3]/.test(next) && /^[0-7]{3}$/.test(text.slice(i + 1, i + 4))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 4), 8));
      i += 3;
    } else if (next in simple) {
      bytes.push(simple[next] as number);
      i++;
    } else fail(`cannot read the quoted path ${text.slice(0, 60)}`);
  }
  return fail(`unterminated quoted path ${text.slice(0, 60)}`);
}
