import {
  type DependencyExtractor,
  matchesWithLines,
  pkgConfigModules,
  type RawDependency,
} from './Dependency.ts';

/** The n-th comma-separated argument of an m4 macro call, brackets stripped. */
function m4Args(text: string, start: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = start; i < text.length && i < start + 4000; i++) {
    const ch = text[i];
    if (ch === '[' || ch === '(') depth++;
    if (ch === ']' || ch === ')') {
      if (depth === 0) {
        args.push(current);
        return args;
      }
      depth--;
    }
    if (ch === ',' && depth === 0) {
      args.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  args.push(current);
  return args;
}

const strip = (s: string | undefined) => (s ?? '').replace(/[[\]]/g, '').trim();

export const autoconfDependencies: DependencyExtractor = {
  name: 'autoconf',
  files: /(^|\/)(configure\.(ac|in)|acinclude\.m4)$/,
  buildSystems: ['autotools'],
  extract(file) {
    const deps: RawDependency[] = [];
    const calls =
      /\b(PKG_CHECK_MODULES|PKG_CHECK_EXISTS|AC_CHECK_LIB|AC_SEARCH_LIBS|AC_CHECK_HEADERS?|AC_CHECK_PROGS?|AC_PATH_PROGS?)\s*\(/g;
    for (const { match, line } of matchesWithLines(file.text, calls)) {
      const macro = match[1] ?? '';
      if (/^\s*dnl\b|^\s*#/.test(file.lines[line - 1] ?? '')) continue;
      const args = m4Args(file.text, (match.index ?? 0) + match[0].length);
      const push = (kind: RawDependency['kind'], name: string, required: boolean) => {
        if (/^[A-Za-z0-9_][\w./+-]*$/.test(name) && !name.includes('$'))
          deps.push({ kind, name, file: file.path, line, required });
      };
      switch (macro) {
        case 'PKG_CHECK_MODULES':
          // without an action-if-not-found the check is fatal
          for (const m of pkgConfigModules(strip(args[1]))) push('pkg-config', m, args.length < 4);
          break;
        case 'PKG_CHECK_EXISTS':
          for (const m of pkgConfigModules(strip(args[0]))) push('pkg-config', m, false);
          break;
        case 'AC_CHECK_LIB':
          push('library', strip(args[0]), false);
          break;
        case 'AC_SEARCH_LIBS':
          for (const lib of strip(args[1]).split(/\s+/)) push('library', lib, false);
          break;
        case 'AC_CHECK_HEADER':
        case 'AC_CHECK_HEADERS':
          for (const h of strip(args[0]).split(/\s+/)) push('header', h, false);
          break;
        default:
          // AC_CHECK_PROG(VAR, prog, …) / AC_PATH_PROG(VAR, prog, …)
          for (const p of strip(args[1]).split(/\s+/)) push('program', p, false);
      }
    }
    return deps;
  },
};
