import { posix } from 'node:path';
import { AUTOCONF_MARKER } from '../../analysis/index.ts';
import { readTextConfined, walkConfined } from '../../fs/index.ts';
import type { ExcerptSource } from '../../llm/index.ts';
import { scriptedOf } from '../graph/nodes/scriptedAnalysis.ts';
import type { PortState } from '../state/PortState.ts';
import { refusedNote, refusedReason } from './refusedNote.ts';

/** Build files worth showing a model, in the order a person would open them. */
const BUILD_FILE_NAMES = [
  'CMakeLists.txt',
  'configure.ac',
  'configure.in',
  'Makefile.am',
  'meson.build',
  'meson_options.txt',
  'meson.options',
  'GNUmakefile',
  'Makefile',
  'makefile',
  'go.mod',
  'Cargo.toml',
  'SConstruct',
  'wscript',
  'pyproject.toml',
  'setup.py',
  'autogen.sh',
  'configure',
];
const DOC_FILE = /^(README|INSTALL|BUILDING|BUILD|COMPILING|HACKING)(\.(md|txt|rst|markdown))?$/i;
/** Files shown at most; more would leave each too small a share of the budget to say anything. */
export const MAX_EXCERPT_FILES = 12;
/** Larger files are not read (generated code); the model sees their name in the analysis. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Lines worth centring an excerpt on, besides the lines the scripted analysis pointed at. */
const INTERESTING =
  /\b(project|find_package|pkg_check_modules|AC_INIT|AC_CHECK_LIB|AC_CHECK_HEADERS?|PKG_CHECK_MODULES|dependency|add_executable|add_library|install|riscv|x86_64|aarch64|march|simd|sse|neon)\b/i;

/**
 * The build files and docs of the source tree on the host, as excerpt sources for a prompt: the
 * files of the chosen build (highest priority), the root's build files, the other detected builds'
 * evidence, then README/INSTALL. A shipped, generated `configure` is left out (configure.ac says
 * the same in a fraction of the tokens). Lines the dependency scan matched are the focus.
 * Every file is read inside the tree: one behind a symbolic link that leads out of it is not
 * read, and the prompt says so in its place.
 */
export function buildFileSources(state: PortState): ExcerptSource[] {
  const root = state.source.dir;
  if (!root) return [];
  const scripted = scriptedOf(state);
  const chosenDir = scripted?.buildSystem.dir ?? '.';
  const wanted = new Map<string, number>();
  const want = (path: string, priority: number) => {
    const rel = posix.normalize(path);
    if (rel.startsWith('..') || posix.isAbsolute(rel)) return;
    wanted.set(rel, Math.max(wanted.get(rel) ?? Number.NEGATIVE_INFINITY, priority));
  };
  for (const name of BUILD_FILE_NAMES) {
    want(posix.join(chosenDir, name), 4);
    want(name, 3);
  }
  for (const path of scripted?.buildSystem.evidence ?? []) want(path, 4);
  for (const candidate of (scripted?.buildSystems ?? []).slice(1, 3))
    for (const path of candidate.evidence) want(path, 2);
  for (const name of listDir(root, '.')) if (DOC_FILE.test(name)) want(name, 1);
  if (chosenDir !== '.')
    for (const name of listDir(root, chosenDir))
      if (DOC_FILE.test(name)) want(posix.join(chosenDir, name), 1);

  const depLines = new Map<string, number[]>();
  for (const d of scripted?.dependencies ?? [])
    depLines.set(d.file, [...(depLines.get(d.file) ?? []), d.line]);

  const sources: ExcerptSource[] = [];
  const notes: ExcerptSource[] = [];
  for (const [path, priority] of [...wanted].sort((a, b) => b[1] - a[1])) {
    if (sources.length >= MAX_EXCERPT_FILES) break;
    const read = readText(root, path);
    if (read.refused) notes.push(refusedNote(path, read.refused));
    const content = read.text;
    if (content === null) continue;
    if (posix.basename(path) === 'configure' && AUTOCONF_MARKER.test(content.slice(0, 4096))) continue;
    sources.push({ path, content, priority, focus: [...(depLines.get(path) ?? []), INTERESTING] });
  }
  return [...sources, ...notes];
}

function listDir(root: string, dir: string): string[] {
  try {
    return walkConfined(root, { from: dir, maxDepth: 0 }).entries.map((e) => e.name);
  } catch {
    return [];
  }
}

/** The text, or null; `refused` when the file exists but is not read for the tree's safety. */
function readText(root: string, path: string): { text: string | null; refused?: string } {
  const read = readTextConfined(root, path, { maxBytes: MAX_FILE_BYTES });
  if (read.text !== null) return { text: read.text.includes('\0') ? null : read.text };
  const refused = refusedReason(read.code);
  return refused ? { text: null, refused } : { text: null };
}
