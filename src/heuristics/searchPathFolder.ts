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

/**
 * The folder where one of the packages the plan installs already (its Build-Depends) keeps the
 * header or library `name`, found by the file, not by the folder's name: libiberty-dev's
 * /usr/include/libiberty/demangle.h, which the Contents index ties to no package because
 * `libiberty` is not named as `demangle.h` is (and other packages carry a demangle.h of their
 * own). One dpkg query over the installed files; only the plan's packages count, and of them one
 * package (its shortest such folder), or nothing: a base package's folder (`/usr/include/linux`)
 * or two packages' folders are no folder to add.
 */
export async function planPackageFolder(
  ctx: HeuristicContext,
  kind: string,
  name: string,
): Promise<{ pkg: string; found: SearchPathFolder } | null> {
  const search = kind === 'header' || kind === 'library' ? SEARCH_PATHS[kind] : null;
  if (!search || ctx.plan.packages.length === 0) return null;
  if (!/^[\w+./-]+$/.test(name) || name.startsWith('/') || name.split('/').includes('..')) return null;
  const suffixes = search.files(name);
  // `/usr/include*/demangle.h`: in the searched folders too, where a copy is no folder to add
  const patterns = suffixes.map((s) => `${search.under.replace(/\/$/, '')}*${s}`);
  const listed = await ctx.sandbox.run(['dpkg-query', '-S', ...patterns], { outputCapBytes: 1024 * 1024 });
  // dpkg-query exits 1 when a pattern matches nothing; what the others matched still counts
  const planned = new Set(ctx.plan.packages);
  const folders = new Map<string, Set<string>>();
  // each line `pkg[:arch][, pkg…]: /path`; a diversion's lines say `diversion by …`
  for (const line of listed.stdout.split('\n')) {
    const at = line.indexOf(': /');
    if (at < 0 || line.startsWith('diversion by ')) continue;
    const path = line.slice(at + 2).trim();
    if (!path.startsWith(search.under)) continue;
    const suffix = suffixes.find((s) => path.endsWith(s));
    if (!suffix) continue;
    const folder = path.slice(0, -suffix.length);
    if (search.searched.includes(folder)) return null;
    for (const owner of line
      .slice(0, at)
      .split(', ')
      .map((o) => o.replace(/:[\w-]+$/, ''))) {
      if (!planned.has(owner)) continue;
      folders.set(owner, (folders.get(owner) ?? new Set()).add(folder));
    }
  }
  if (folders.size !== 1) return null;
  const [[pkg, own] = ['', new Set<string>()]] = [...folders];
  const folder = [...own].sort((a, b) => a.length - b.length)[0] ?? '';
  const safe = /^\/usr\/[\w+./-]+$/.test(folder) && !folder.split('/').includes('..');
  return safe
    ? {
        pkg,
        found: {
          variable: search.variable,
          folder,
          entry: search.entry(folder),
          separator: search.separator,
        },
      }
    : null;
}
