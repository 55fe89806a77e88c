import { withEnv } from './planEdits.ts';
import type { HeuristicContext } from './RecoveryHeuristic.ts';

/**
 * Where a package keeps a header or a library in a folder of its own, which the compiler and the
 * linker do not search (`quickjs-libc.h` in /usr/include/quickjs, `libquickjs.a` in
 * /usr/lib/quickjs), and the variable that adds that folder to their search: CPATH for the
 * compiler, whatever the build system; `-L` in LDFLAGS for the link, which configure, CMake, meson
 * and most Makefiles read (LIBRARY_PATH would do in emulated mode only: a cross gcc ignores it).
 */
interface SearchPath {
  variable: 'CPATH' | 'LDFLAGS';
  /** The variable's value for the folder, and the separator of the variable's entries. */
  entry(folder: string): string;
  separator: string;
  /** The file names that satisfy the request, each with a leading slash. */
  files(name: string): string[];
  under: string;
  /** Folders searched without being named (a file there is not this repair's to find). */
  searched: readonly string[];
}

const SEARCH_PATHS: Readonly<Record<'header' | 'library', SearchPath>> = {
  header: {
    variable: 'CPATH',
    entry: (folder) => folder,
    separator: ':',
    files: (name) => [`/${name}`],
    under: '/usr/include/',
    searched: ['/usr/include', '/usr/include/riscv64-linux-gnu'],
  },
  library: {
    variable: 'LDFLAGS',
    entry: (folder) => `-L${folder}`,
    separator: ' ',
    files: (name) => [`/lib${name}.so`, `/lib${name}.a`],
    under: '/usr/lib/',
    searched: ['/usr/lib', '/usr/lib/riscv64-linux-gnu', '/lib', '/lib/riscv64-linux-gnu'],
  },
};

export interface SearchPathFolder {
  variable: SearchPath['variable'];
  folder: string;
  /** What the variable gets for the folder (`/usr/include/quickjs`, `-L/usr/lib/quickjs`). */
  entry: string;
  separator: string;
}

/**
 * The folder of an installed package that holds the header or library `name` where the build does
 * not look, read from the package's file list inside the sandbox; null when the file is in a
 * folder searched already, the package does not have it, or the kind has no search variable.
 */
export async function searchPathFolder(
  ctx: HeuristicContext,
  pkg: string,
  kind: string,
  name: string,
): Promise<SearchPathFolder | null> {
  const search = kind === 'header' || kind === 'library' ? SEARCH_PATHS[kind] : null;
  if (!search) return null;
  const listed = await ctx.sandbox.run(['dpkg-query', '-L', pkg], { outputCapBytes: 1024 * 1024 });
  if (listed.exitCode !== 0) return null;
  const suffixes = search.files(name);
  const folders = listed.stdout
    .split('\n')
    .filter((p) => p.startsWith(search.under))
    .flatMap((p) => suffixes.filter((s) => p.endsWith(s)).map((s) => p.slice(0, -s.length)));
  if (folders.length === 0 || folders.some((f) => search.searched.includes(f))) return null;
  const folder = folders.sort((a, b) => a.length - b.length)[0] ?? '';
  const safe = /^\/usr\/[\w+./-]+$/.test(folder) && !folder.split('/').includes('..');
  return safe
    ? { variable: search.variable, folder, entry: search.entry(folder), separator: search.separator }
    : null;
}

/** A folder for the compiler's header search (CPATH), as searchPathFolder gives one. */
export function headerSearchFolder(folder: string): SearchPathFolder {
  const search = SEARCH_PATHS.header;
  return { variable: search.variable, folder, entry: search.entry(folder), separator: search.separator };
}

/** Whether the plan's environment searches the folder already. */
export function searchesFolder(plan: HeuristicContext['plan'], found: SearchPathFolder): boolean {
  return (plan.env?.[found.variable] ?? '').split(found.separator).includes(found.entry);
}

/** The plan with the folder appended to its search variable. */
export function withSearchPathFolder(
  plan: HeuristicContext['plan'],
  found: SearchPathFolder,
): HeuristicContext['plan'] {
  const current = plan.env?.[found.variable];
  return withEnv(plan, found.variable, current ? `${current}${found.separator}${found.entry}` : found.entry);
}
