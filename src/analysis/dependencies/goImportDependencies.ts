import type { DependencyExtractor, RawDependency } from './Dependency.ts';

/** The folder of a path (`a/b/c.go` → `a/b`, `c.go` → ''). */
const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));

/** Whether a go.mod is in the file's folder or one above it: then go.mod names the requirements. */
function inModule(path: string, exists: (p: string) => boolean): boolean {
  for (let dir = folderOf(path); ; dir = folderOf(dir)) {
    if (exists(dir ? `${dir}/go.mod` : 'go.mod')) return true;
    if (!dir) return false;
  }
}

/**
 * The imports of a Go package from before modules (no go.mod above it), which are its only list
 * of requirements: each non-standard import path (its first element has a dot) is a package of
 * Debian's Go libraries, found by its folder under /usr/share/gocode. Test files count too, since
 * the build compiles the tests (`go test -c`).
 */
export const goImportDependencies: DependencyExtractor = {
  name: 'go imports',
  files: /\.go$/,
  buildSystems: ['go'],
  wants: (path, exists) => !inModule(path, exists),
  extract(file) {
    const deps: RawDependency[] = [];
    const block = /^import\s*\(([^)]*)\)|^import\s+(?:[\w.]+\s+)?"([^"]+)"/gm;
    for (const m of file.text.matchAll(block)) {
      const start = file.text.slice(0, m.index).split('\n').length;
      const specs =
        m[1] !== undefined ? [...m[1].matchAll(/"([^"]+)"/g)].map((s) => s[1] ?? '') : [m[2] ?? ''];
      for (const path of specs) {
        if (!/^[^/]*\.[^/]*\//.test(path) || !/^[\w.~/-]+$/.test(path)) continue;
        deps.push({ kind: 'go-module', name: path, file: file.path, line: start, required: true });
      }
    }
    return deps;
  },
};
