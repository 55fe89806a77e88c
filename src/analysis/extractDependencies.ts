import type { BuildSystemType } from './buildSystems/BuildSystemDetector.ts';
import { type DependencyExtractor, dependencyExtractors, type RawDependency } from './dependencies/index.ts';
import type { SourceTree } from './SourceTree.ts';

/** Folders whose build files belong to tests, examples or bundled code, not to the package. */
const SKIP =
  /(^|\/)(tests?|testsuite|examples?|samples?|docs?|third[_-]?party|vendor|deps|external|fuzz(ing)?|bench(marks?)?|contrib|testdata)\//i;

/**
 * Dependencies from the build files of the build in `dir` (and its subfolders), in file order.
 * `dir` is relative to the root ('.' for the root). Given the build system, what the files of
 * another build system ask for is kept only as optional (an autotools build does not install what
 * the go.mod of its integration tests requires, but a repair may still find the name there); a
 * build system without a reader of its own (a plain Makefile) takes every build file as it is.
 */
export function extractDependencies(
  tree: SourceTree,
  dir = '.',
  buildSystem?: BuildSystemType,
  extractors: readonly DependencyExtractor[] = dependencyExtractors,
): RawDependency[] {
  const hasOwn = buildSystem !== undefined && extractors.some((e) => e.buildSystems.includes(buildSystem));
  const foreign = (e: DependencyExtractor) => hasOwn && !e.buildSystems.includes(buildSystem);
  const prefix = dir === '.' || dir === '' ? '' : `${dir}/`;
  const deps: RawDependency[] = [];
  for (const path of tree.files) {
    if (!path.startsWith(prefix)) continue;
    const rel = path.slice(prefix.length);
    const skipped = SKIP.test(rel);
    const exists = (p: string) => tree.has(p);
    const matching = extractors.filter(
      (e) =>
        e.files.test(path) &&
        (!skipped || e.alsoInSkippedFolders?.test(rel) === true) &&
        (e.wants?.(path, exists) ?? true),
    );
    if (matching.length === 0) continue;
    const text = tree.read(path);
    if (text === null) continue;
    const file = { path, text, lines: text.split('\n'), exists };
    for (const extractor of matching) {
      const found = extractor.extract(file);
      deps.push(...(foreign(extractor) ? found.map((d) => ({ ...d, required: false })) : found));
    }
  }
  return deps;
}
