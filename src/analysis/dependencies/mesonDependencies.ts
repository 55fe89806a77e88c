import { type DependencyExtractor, matchesWithLines, type RawDependency } from './Dependency.ts';
import { foreignPlatformLines, MESON_BLOCKS } from './foreignPlatformBlocks.ts';

/** Dependencies meson provides itself or that are not packages. */
const BUILTIN = new Set(['threads', 'openmp', 'dl', 'm', 'rt', '']);

export const mesonDependencies: DependencyExtractor = {
  name: 'meson',
  files: /(^|\/)meson\.build$/,
  buildSystems: ['meson'],
  extract(file) {
    const deps: RawDependency[] = [];
    for (const { match, line } of matchesWithLines(file.text, /\bdependency\s*\(\s*'([^']+)'([^)]*)\)/g)) {
      const name = match[1] ?? '';
      if (BUILTIN.has(name)) continue;
      deps.push({
        kind: 'pkg-config',
        name,
        file: file.path,
        line,
        required: !/required\s*:\s*false/.test(match[2] ?? ''),
      });
    }
    for (const { match, line } of matchesWithLines(file.text, /\.find_library\s*\(\s*'([^']+)'([^)]*)\)/g)) {
      if (BUILTIN.has(match[1] ?? '')) continue;
      deps.push({
        kind: 'library',
        name: match[1] ?? '',
        file: file.path,
        line,
        required: !/required\s*:\s*false/.test(match[2] ?? ''),
      });
    }
    for (const { match, line } of matchesWithLines(
      file.text,
      /\.(?:has_header|check_header)\s*\(\s*'([^']+)'/g,
    )) {
      deps.push({ kind: 'header', name: match[1] ?? '', file: file.path, line, required: false });
    }
    for (const { match, line } of matchesWithLines(file.text, /\bfind_program\s*\(\s*'([^']+)'([^)]*)\)/g)) {
      deps.push({
        kind: 'program',
        name: match[1] ?? '',
        file: file.path,
        line,
        required: !/required\s*:\s*false/.test(match[2] ?? ''),
      });
    }
    // what only another system's build asks for (winmm, a Windows SDK header, llvm-dlltool)
    const foreign = foreignPlatformLines(file.lines, MESON_BLOCKS);
    return deps.filter((d) => !foreign.has(d.line));
  },
};
