import type { DependencyExtractor, RawDependency } from './Dependency.ts';

const SECTION = /^\[((?:target\.[^\]]+\.)?(dependencies|build-dependencies))\]$/;

export const cargoDependencies: DependencyExtractor = {
  name: 'cargo',
  files: /(^|\/)Cargo\.toml$/,
  extract(file) {
    const deps: RawDependency[] = [];
    let section: string | null = null;
    file.lines.forEach((raw, i) => {
      const line = raw.replace(/#.*$/, '').trim();
      if (line.startsWith('[')) {
        section = SECTION.test(line) ? line : null;
        const table = /^\[(?:target\.[^\]]+\.)?(?:dependencies|build-dependencies)\.([\w-]+)\]$/.exec(line);
        if (table?.[1])
          deps.push({ kind: 'crate', name: table[1], file: file.path, line: i + 1, required: true });
        return;
      }
      const name = section ? /^([\w-]+)\s*=/.exec(line)?.[1] : undefined;
      if (name)
        deps.push({
          kind: 'crate',
          name,
          file: file.path,
          line: i + 1,
          required: !/optional\s*=\s*true/.test(line),
        });
    });
    return deps;
  },
};
