import { posix } from 'node:path';
import { readTextConfined } from '../../fs/index.ts';
import type { ExcerptSource } from '../../llm/index.ts';
import { refusedNote, refusedReason } from './refusedNote.ts';

/** Where a diagnostic points: a file of the source tree and a line in it. */
export interface SourceReference {
  /** Relative to the source root. */
  path: string;
  line?: number;
}

/** Files whose excerpts a fixer prompt carries, at most. */
export const MAX_REFERENCED_FILES = 4;

/**
 * The output of the last command in a build log (rvport writes `### [phase] … $ command` before
 * each one): the failing command's own output, not the whole log.
 */
export function lastCommandOutput(buildLog: string): string {
  const start = buildLog.lastIndexOf('\n### [');
  if (start < 0) return buildLog;
  return buildLog.slice(start + 1);
}

const DIAGNOSTIC =
  /(?:^|[\s'"`(])((?:\.{0,2}\/)?[\w+@-][\w./+@-]*\.(?:c|h|cc|cpp|cxx|hh|hpp|hxx|s|S|asm|inc|ac|am|in|mk|m4|cmake|txt|py|go|rs|pl|sh))(?::(\d+))?(?::\d+)?:\s*(?:fatal )?(?:error|Error|undefined reference|multiple definition|note: previous)/;
const ENTERING = /Entering directory ['`]([^'`]+)'/;
const SANDBOX_ROOT = '/build/src/';

/**
 * Source files named by the diagnostics of a failed command (`file.c:12:3: error: …`, linker
 * errors, previous-declaration notes), resolved against make's current directory when it says one,
 * in order of appearance, without duplicates.
 */
export function referencedFiles(output: string, planDir: string): SourceReference[] {
  const found: SourceReference[] = [];
  const seen = new Set<string>();
  let cwd = planDir;
  for (const line of output.split('\n')) {
    const entering = ENTERING.exec(line);
    if (entering?.[1]?.startsWith(SANDBOX_ROOT)) cwd = entering[1].slice(SANDBOX_ROOT.length);
    else if (entering?.[1] === '/build/src') cwd = '.';
    const m = DIAGNOSTIC.exec(line);
    if (!m?.[1]) continue;
    const raw = m[1];
    const path = raw.startsWith(SANDBOX_ROOT)
      ? raw.slice(SANDBOX_ROOT.length)
      : raw.startsWith('/')
        ? null
        : posix.normalize(posix.join(cwd, raw));
    if (!path || path.startsWith('..')) continue; // system headers and files outside the tree
    const key = `${path}:${m[2] ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    found.push({ path, ...(m[2] ? { line: Number(m[2]) } : {}) });
  }
  return found;
}

/** Larger files are not excerpted. */
const MAX_REFERENCED_BYTES = 4 * 1024 * 1024;

/**
 * Excerpt sources for the referenced files that exist in the tree (the fresh source the build
 * used), each focused on the lines its diagnostics name; the first file has the highest priority.
 * Files are read inside the tree only: a diagnostic naming a link that leads out of it (the build
 * or the repository can plant `src/x.c -> /root/.ssh/id_rsa`) gets a note, not the file.
 */
export async function referencedExcerpts(
  treeRoot: string,
  references: readonly SourceReference[],
): Promise<ExcerptSource[]> {
  const byPath = new Map<string, number[]>();
  for (const ref of references) {
    const lines = byPath.get(ref.path) ?? [];
    if (ref.line) lines.push(ref.line);
    byPath.set(ref.path, lines);
  }
  const sources: ExcerptSource[] = [];
  const notes: ExcerptSource[] = [];
  for (const [path, lines] of byPath) {
    if (sources.length >= MAX_REFERENCED_FILES) break;
    const read = readTextConfined(treeRoot, path, { maxBytes: MAX_REFERENCED_BYTES });
    if (read.text === null) {
      const refused = refusedReason(read.code);
      if (refused) notes.push(refusedNote(path, refused));
      continue;
    }
    sources.push({ path, content: read.text, focus: lines, priority: MAX_REFERENCED_FILES - sources.length });
  }
  return [...sources, ...notes];
}
