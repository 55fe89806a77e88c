import {
  C_RUNTIME_LIBRARIES,
  type DependencyExtractor,
  matchesWithLines,
  type RawDependency,
} from './Dependency.ts';

/** Libraries the C compiler and perl bring themselves. */
const BUILTIN = new Set([...C_RUNTIME_LIBRARIES, 'perl']);

/**
 * The C libraries a Perl distribution's XS code links, as its Makefile.PL names them: `-lfoo` in
 * a quoted LIBS value (`LIBS => ['-lGeoIP']`) or a `dl_findfile('foo')` probe. MakeMaker only
 * warns ("No library found for -lfoo") and builds a module that fails to load, so each is required.
 */
export const perlMakefileDependencies: DependencyExtractor = {
  name: 'perl',
  files: /(^|\/)(Makefile|Build)\.PL$/,
  buildSystems: ['perl'],
  extract(file) {
    const found = new Map<string, RawDependency>();
    const add = (name: string, line: number) => {
      if (!BUILTIN.has(name) && !found.has(name))
        found.set(name, { kind: 'library', name, file: file.path, line, required: true });
    };
    for (const { match, line } of matchesWithLines(file.text, /(['"])([^'"\n]*)\1/g))
      for (const lib of (match[2] ?? '').matchAll(/(?:^|\s)-l([A-Za-z][\w+.-]*)/g)) add(lib[1] ?? '', line);
    for (const { match, line } of matchesWithLines(
      file.text,
      /\bdl_findfile\s*\(\s*['"](?:-l)?([A-Za-z][\w+.-]*)['"]/g,
    ))
      add(match[1] ?? '', line);
    return [...found.values()];
  },
};
