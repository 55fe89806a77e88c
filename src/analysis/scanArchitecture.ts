import { posix } from 'node:path';
import {
  type Finding,
  foreignTargetOfPath,
  type HazardRule,
  hazardRules,
  type ScannedFile,
  SEVERITY_RANK,
} from './hazards/index.ts';
import type { SourceTree } from './SourceTree.ts';

const C_FILE = /\.(c|h|cc|cpp|cxx|c\+\+|hh|hpp|hxx|h\+\+|inl|ipp|m|mm)$/i;
const ASM_FILE = /\.(S|s|asm|sx)$/;
const BUILD_FILE =
  /(^|\/)(GNUmakefile|[Mm]akefile(\.am|\.in|\.unix|\.linux|\.gnu)?|CMakeLists\.txt|meson\.build|meson_options\.txt|configure\.(ac|in)|configure\.host|wscript|SConstruct|SConscript|build\.rs|setup\.py)$|\.(mk|mak|cmake)$/;
/** Generated or vendored helper scripts whose architecture tables are not the package's. */
const SKIP_BUILD = /(^|\/)(aclocal\.m4|configure|config\.guess|config\.sub|ltmain\.sh|libtool\.m4)$/;

/** Which kind of file a path is for the scan, or null when no rule looks at it. */
export function languageOf(path: string): ScannedFile['language'] | null {
  if (SKIP_BUILD.test(path)) return null;
  if (C_FILE.test(path)) return 'c';
  if (ASM_FILE.test(path)) return 'asm';
  if (BUILD_FILE.test(path) || /^Makefile/.test(posix.basename(path))) return 'build';
  return null;
}

/**
 * Runs every hazard rule over the tree: file rules on each C/C++, assembly and build file (read
 * once; not on sources named for another architecture), tree rules once. Sorted by severity, then file and line.
 */
export function scanArchitecture(tree: SourceTree, rules: readonly HazardRule[] = hazardRules): Finding[] {
  const findings: Finding[] = [];
  const fileRules = rules.filter((r) => r.scanFile);
  for (const path of tree.files) {
    const language = languageOf(path);
    if (!language) continue;
    // sources written for one architecture or another OS (x86/, *_neon.c, win32/) are not built here
    if (language !== 'build' && foreignTargetOfPath(path)) continue;
    const text = tree.read(path);
    if (text === null) continue;
    const file: ScannedFile = { path, text, lines: text.split('\n'), language };
    for (const rule of fileRules) findings.push(...(rule.scanFile?.(file) ?? []));
  }
  for (const rule of rules) findings.push(...(rule.scanTree?.(tree) ?? []));
  return findings.sort(
    (a, b) =>
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      (a.line ?? 0) - (b.line ?? 0),
  );
}
