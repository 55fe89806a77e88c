import {
  C_RUNTIME_LIBRARIES,
  type DependencyExtractor,
  matchesWithLines,
  type RawDependency,
} from './Dependency.ts';

/**
 * What a PHP extension's config.m4 needs: phpize and php-config (the PHP development files), the
 * PHP command line its `make test` runs, and the C libraries it links (`PHP_ADD_LIBRARY`,
 * `PHP_CHECK_LIBRARY`, `PHP_ADD_LIBRARY_WITH_PATH`).
 */
export const phpExtensionDependencies: DependencyExtractor = {
  name: 'php',
  files: /(^|\/)config\.m4$/,
  buildSystems: ['php'],
  extract(file) {
    if (!/\bPHP_NEW_EXTENSION\s*\(|\bPHP_ARG_(WITH|ENABLE)\s*\(/.test(file.text)) return [];
    const deps: RawDependency[] = [
      { kind: 'program', name: 'phpize', file: file.path, line: 1, required: true },
      { kind: 'program', name: 'php', file: file.path, line: 1, required: true },
    ];
    const seen = new Set<string>();
    for (const { match, line } of matchesWithLines(
      file.text,
      /\bPHP_(?:ADD_LIBRARY(?:_WITH_PATH)?|CHECK_LIBRARY)\s*\(\s*\[?([A-Za-z][\w+.-]*)\]?/g,
    )) {
      const name = match[1] ?? '';
      if (seen.has(name) || C_RUNTIME_LIBRARIES.has(name) || name === 'stdc++' || name.startsWith('$'))
        continue;
      seen.add(name);
      deps.push({ kind: 'library', name, file: file.path, line, required: true });
    }
    return deps;
  },
};
