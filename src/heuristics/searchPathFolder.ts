import { withEnv } from './planEdits.ts';
import type { HeuristicContext } from './RecoveryHeuristic.ts';

/**
 * Where a package keeps a header or a library in a folder of its own, which the compiler and the
 * linker do not search (`quickjs-libc.h` in /usr/include/quickjs, `libquickjs.a` in
 * /usr/lib/quickjs), and the variable that adds that folder to their search whatever the build
 * system: CPATH for the compiler, LIBRARY_PATH for the linker gcc drives.
 */
interface SearchPath {
  variable: 'CPATH' | 'LIBRARY_PATH';
  /** The file names that satisfy the request, each with a leading slash. */
  files(name: string): string[];
  under: string;
  /** Folders searched without being named (a file there is not this repair's to find). */
  searched: readonly string[];
}

const SEARCH_PATHS: Readonly<Record<'header' | 'library', SearchPath>> = {
  header: {
    variable: 'CPATH',
    files: (name) => [`/${name}`],
    under: '/usr/include/',
    searched: ['/usr/include', '/usr/include/riscv64-linux-gnu'],
  },
  library: {
    variable: 'LIBRARY_PATH',
    files: (name) => [`/lib${name}.so`, `/lib${name}.a`],
    under: '/usr/lib/',
    searched: ['/usr/lib', '/usr/lib/riscv64-linux-gnu', '/lib', '/lib/riscv64-linux-gnu'],
  },
};

export interface SearchPathFolder {
  variable: SearchPath['variable'];
  folder: string;
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
  return safe ? { variable: search.variable, folder } : null;
}

/** Whether the plan's environment searches the folder already. */
export function searchesFolder(plan: HeuristicContext['plan'], found: SearchPathFolder): boolean {
  return (plan.env?.[found.variable] ?? '').split(':').includes(found.folder);
}

/** The plan with the folder appended to its search variable. */
export function withSearchPathFolder(
  plan: HeuristicContext['plan'],
  found: SearchPathFolder,
): HeuristicContext['plan'] {
  const current = plan.env?.[found.variable];
  return withEnv(plan, found.variable, current ? `${current}:${found.folder}` : found.folder);
}
