import type { BuildSystemType } from '../buildSystems/BuildSystemDetector.ts';

export type DependencyKind =
  | 'pkg-config'
  | 'header'
  | 'library'
  | 'cmake-package'
  | 'program'
  | 'go-module'
  | 'crate'
  | 'python-package'
  | 'r-package';

/** Libraries of the C library and the compiler's runtime, which every C build has: never a dependency. */
export const C_RUNTIME_LIBRARIES: ReadonlySet<string> = new Set(['c', 'm', 'dl', 'pthread', 'rt']);

/** What a build file asks for, before resolution. */
export interface RawDependency {
  kind: DependencyKind;
  name: string;
  file: string;
  line: number;
  /** False for optional checks (`QUIET`, `required: false`, an action-if-not-found). */
  required: boolean;
  /** For a crate: what Cargo.toml asks for, what Cargo.lock pins, and (once resolved) what Debian has. */
  crate?: CrateFacts;
}

/** A crate dependency's versions: the requirement, the lock's pin and Debian's packaged version. */
export interface CrateFacts {
  /** The Cargo.toml requirement (`1.0`, `>=0.4, <0.6`), or `=version` for a crate only the lock names. */
  requirement: string;
  /** Which table declared it; `lock` for a crate only Cargo.lock names (a transitive one). */
  scope: 'normal' | 'build' | 'dev' | 'workspace' | 'lock';
  /** The version Cargo.lock pins, when there is a lock and it names the crate. */
  locked?: string;
  /** The Cargo.lock that pinned it (relative to the source root). */
  lockFile?: string;
  /** The version in Debian's registry the resolution chose; null when Debian has none. */
  debianVersion?: string | null;
  /** Whether that version satisfies the requirement. */
  satisfies?: boolean;
}

export interface Dependency extends RawDependency {
  /** The Debian packages (riscv64) that provide it, best first; empty when unresolved. */
  debianPackages: string[];
  resolvedBy: 'contents' | 'alias' | null;
}

export interface BuildFile {
  path: string;
  text: string;
  lines: readonly string[];
  /** Whether a file (relative to the source root) is in the tree: for outputs a checkout lacks. */
  exists?: (path: string) => boolean;
}

/** Reads one family of build files. */
export interface DependencyExtractor {
  name: string;
  /** Which files it reads (matched against the path relative to the source root). */
  files: RegExp;
  /** The build systems whose files these are; another build's dependencies are not this one's. */
  buildSystems: readonly BuildSystemType[];
  /** Folders usually left out (tests, docs, vendored code) whose build files it still reads. */
  alsoInSkippedFolders?: RegExp;
  /** Whether a matching file is for it at all, asked before the file is read (`exists` sees the tree). */
  wants?(path: string, exists: (path: string) => boolean): boolean;
  extract(file: BuildFile): RawDependency[];
}

/** Every match of a global regex with its 1-based line. */
export function matchesWithLines(text: string, pattern: RegExp): { match: RegExpExecArray; line: number }[] {
  const out: { match: RegExpExecArray; line: number }[] = [];
  const lineStarts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const lineOf = (index: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  for (const match of text.matchAll(pattern)) out.push({ match, line: lineOf(match.index ?? 0) });
  return out;
}

/** `glib-2.0 >= 2.50 gio-2.0` → [glib-2.0, gio-2.0]: pkg-config module lists with versions. */
export function pkgConfigModules(list: string): string[] {
  return list
    .replace(/\s*(>=|<=|=|>|<)\s*\S+/g, ' ')
    .split(/[\s,]+/)
    .map((m) => m.replace(/^[[\]"']+|[[\]"']+$/g, ''))
    .filter((m) => /^[A-Za-z0-9][\w.+-]*$/.test(m) && !/^\$/.test(m));
}
