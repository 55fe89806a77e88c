import type { DependencyExtractor, RawDependency } from './Dependency.ts';

export const goModDependencies: DependencyExtractor = {
  name: 'go.mod',
  files: /(^|\/)go\.mod$/,
  buildSystems: ['go'],
  extract(file) {
    const deps: RawDependency[] = [];
    let inBlock = false;
    file.lines.forEach((raw, i) => {
      const line = raw.replace(/\/\/.*$/, '').trim();
      if (/^require\s*\($/.test(line)) inBlock = true;
      else if (inBlock && line === ')') inBlock = false;
      const spec = inBlock ? line : /^require\s+(.+)$/.exec(line)?.[1];
      const module = spec ? /^([\w.~/-]+)\s+v\S+/.exec(spec)?.[1] : undefined;
      if (module)
        // an indirect requirement is a dependency's dependency: apt brings it with that one's package
        deps.push({
          kind: 'go-module',
          name: module,
          file: file.path,
          line: i + 1,
          required: !/\/\/\s*indirect\b/.test(raw),
        });
    });
    return deps;
  },
};
