import {
  type DependencyExtractor,
  matchesWithLines,
  pkgConfigModules,
  type RawDependency,
} from './Dependency.ts';
import { CMAKE_BLOCKS, foreignPlatformLines } from './foreignPlatformBlocks.ts';

/** Packages CMake itself provides (no Debian package to install). */
const BUILTIN = new Set(['PkgConfig', 'Threads', 'CheckIncludeFile', 'GNUInstallDirs']);

export const cmakeDependencies: DependencyExtractor = {
  name: 'cmake',
  files: /(^|\/)CMakeLists\.txt$|\.cmake$/,
  buildSystems: ['cmake'],
  extract(file) {
    const deps: RawDependency[] = [];
    const push = (kind: RawDependency['kind'], name: string, line: number, required: boolean) =>
      deps.push({ kind, name, file: file.path, line, required });
    for (const { match, line } of matchesWithLines(
      file.text,
      /\bfind_package\s*\(\s*([A-Za-z0-9_.+-]+)([^)]*)\)/gi,
    )) {
      const name = match[1] ?? '';
      if (!BUILTIN.has(name) && !name.startsWith('$'))
        push('cmake-package', name, line, /\bREQUIRED\b/.test(match[2] ?? ''));
    }
    for (const { match, line } of matchesWithLines(
      file.text,
      /\bpkg_(check|search)_modules\s*\(\s*[A-Za-z0-9_]+((?:\s+(?:REQUIRED|QUIET|IMPORTED_TARGET|GLOBAL|NO_CMAKE_PATH|NO_CMAKE_ENVIRONMENT_PATH))*)\s+([^)]*)\)/gi,
    )) {
      for (const m of pkgConfigModules(match[3] ?? ''))
        push('pkg-config', m, line, /REQUIRED/.test(match[2] ?? ''));
    }
    for (const { match, line } of matchesWithLines(
      file.text,
      /\bcheck_include_files?(?:_cxx)?\s*\(\s*"?([\w./+-]+\.h(?:pp)?)"?/gi,
    )) {
      push('header', match[1] ?? '', line, false);
    }
    for (const { match, line } of matchesWithLines(
      file.text,
      /\bcheck_library_exists\s*\(\s*"?([\w.+-]+)"?/gi,
    )) {
      push('library', (match[1] ?? '').replace(/^lib/, ''), line, false);
    }
    for (const { match, line } of matchesWithLines(
      file.text,
      /\bfind_library\s*\(\s*\w+\s+(?:NAMES\s+)?(?!NAMES\b)"?([\w.+-]+)"?/gi,
    )) {
      push('library', (match[1] ?? '').replace(/^lib/, ''), line, false);
    }
    for (const { match, line } of matchesWithLines(
      file.text,
      /\bfind_program\s*\(\s*\w+\s+(?:NAMES\s+)?(?!NAMES\b)"?([\w.+-]+)"?/gi,
    )) {
      push('program', match[1] ?? '', line, false);
    }
    // what only another system's build asks for (`if(WIN32)`, `if(APPLE)`)
    const foreign = foreignPlatformLines(file.lines, CMAKE_BLOCKS);
    return deps.filter((d) => !foreign.has(d.line));
  },
};
