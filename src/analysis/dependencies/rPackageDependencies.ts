import type { DependencyExtractor, RawDependency } from './Dependency.ts';

/** The packages R itself carries (r-base-core): never a dependency of their own. */
const BASE = new Set([
  'R',
  'base',
  'compiler',
  'datasets',
  'graphics',
  'grDevices',
  'grid',
  'methods',
  'parallel',
  'splines',
  'stats',
  'stats4',
  'tcltk',
  'tools',
  'utils',
]);

/** The packages of a DESCRIPTION field (`Rcpp (>= 1.0), stats,\n  lattice`), with the line of each. */
export function descriptionPackages(text: string, field: string): { name: string; line: number }[] {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`${field}:`));
  if (at < 0) return [];
  let value = (lines[at] ?? '').slice(field.length + 1);
  for (let i = at + 1; i < lines.length && /^[ \t]/.test(lines[i] ?? ''); i++) value += `\n${lines[i]}`;
  const found: { name: string; line: number }[] = [];
  let line = at + 1;
  for (const part of value.split(',')) {
    const m = /^(\s*)([A-Za-z][A-Za-z0-9.]*)/.exec(part);
    const before = (m?.[1] ?? '').split('\n').length - 1;
    if (m?.[2]) found.push({ name: m[2], line: line + before });
    line += part.split('\n').length - 1;
  }
  return found;
}

/**
 * What an R package's DESCRIPTION needs: R with its development files (r-base-dev: the headers,
 * R CMD INSTALL's compilers), the packages of `Depends`, `Imports` and `LinkingTo`, and testthat
 * when the tests run through it. Other `Suggests` are optional: tests may use them, the build never.
 */
export const rPackageDependencies: DependencyExtractor = {
  name: 'r',
  files: /(^|\/)DESCRIPTION$/,
  buildSystems: ['r'],
  extract(file) {
    if (!/^Package:/m.test(file.text)) return [];
    // R itself: its alias is r-base-dev, which brings R CMD INSTALL's compilers with it
    const deps: RawDependency[] = [
      { kind: 'r-package', name: 'R', file: file.path, line: 1, required: true },
    ];
    const seen = new Set<string>();
    const add = (name: string, line: number, required: boolean) => {
      if (BASE.has(name) || seen.has(name)) return;
      seen.add(name);
      deps.push({ kind: 'r-package', name, file: file.path, line, required });
    };
    for (const field of ['Depends', 'Imports', 'LinkingTo'])
      for (const { name, line } of descriptionPackages(file.text, field)) add(name, line, true);
    const dir = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/') + 1) : '';
    const viaTestthat = file.exists?.(`${dir}tests/testthat.R`) ?? false;
    for (const { name, line } of descriptionPackages(file.text, 'Suggests'))
      add(name, line, viaTestthat && name === 'testthat');
    return deps;
  },
};
