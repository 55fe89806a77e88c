import {
  type DependencyExtractor,
  matchesWithLines,
  pkgConfigModules,
  type RawDependency,
} from './Dependency.ts';

/** SCons (`CheckLib`, `CheckHeader`, `ParseConfig('pkg-config …')`) and waf (`check_cfg`, `check_cc`). */
export const pythonBuildDependencies: DependencyExtractor = {
  name: 'scons/waf',
  files: /(^|\/)(SConstruct|SConscript|wscript)$/,
  buildSystems: ['scons', 'waf'],
  extract(file) {
    const deps: RawDependency[] = [];
    const push = (kind: RawDependency['kind'], name: string, line: number, required: boolean) => {
      if (/^[A-Za-z0-9_][\w./+-]*$/.test(name)) deps.push({ kind, name, file: file.path, line, required });
    };
    const mandatory = (args: string) => !/mandatory\s*=\s*False/.test(args);
    for (const { match, line } of matchesWithLines(file.text, /\bcheck_cfg\s*\(([^)]*)\)/g)) {
      const pkg = /package\s*=\s*['"]([^'"]+)['"]/.exec(match[1] ?? '')?.[1];
      if (pkg) for (const m of pkgConfigModules(pkg)) push('pkg-config', m, line, mandatory(match[1] ?? ''));
    }
    for (const { match, line } of matchesWithLines(file.text, /\bcheck_cc\s*\(([^)]*)\)/g)) {
      const args = match[1] ?? '';
      const header = /header_name\s*=\s*['"]([^'"]+)['"]/.exec(args)?.[1];
      const lib = /\blib\s*=\s*['"]([^'"]+)['"]/.exec(args)?.[1];
      if (header) for (const h of header.split(/\s+/)) push('header', h, line, mandatory(args));
      if (lib) push('library', lib, line, mandatory(args));
    }
    for (const { match, line } of matchesWithLines(
      file.text,
      /\bCheckLib(?:WithHeader)?\s*\(\s*(?:\w+\s*,\s*)?\[?\s*['"]([\w.+-]+)['"]/g,
    )) {
      push('library', match[1] ?? '', line, false);
    }
    for (const { match, line } of matchesWithLines(
      file.text,
      /\bCheck(?:C|CXX)?Header\s*\(\s*(?:\w+\s*,\s*)?\[?\s*['"]([\w./+-]+)['"]/g,
    )) {
      push('header', match[1] ?? '', line, false);
    }
    for (const { match, line } of matchesWithLines(
      file.text,
      /pkg-config(?:[ \t]+--[\w-]+)+[ \t]+([\w.+-]+(?:[ \t]+[\w.+-]+)*)/g,
    )) {
      for (const m of pkgConfigModules(match[1] ?? ''))
        if (!m.startsWith('-')) push('pkg-config', m, line, true);
    }
    // SCons builds often ask a library's own *-config script (apr-1-config, apu-1-config)
    for (const { match, line } of matchesWithLines(file.text, /['"]([a-z][\w.-]*-config)['"]/g)) {
      if (match[1] !== 'pkg-config') push('program', match[1] ?? '', line, true);
    }
    return deps;
  },
};
