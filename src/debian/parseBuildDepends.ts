import { DEBIAN_PACKAGE_NAME } from './packageName.ts';

/**
 * Tools that only drive Debian's own packaging (the `debian/rules` machinery, quilt, debconf
 * templates): an upstream build never calls them, and some pull in much of the archive.
 */
const PACKAGING_ONLY = new Set([
  'debhelper',
  'debhelper-compat',
  'debputy',
  'dpkg-build-api',
  'dpkg-dev',
  'build-essential',
  'quilt',
  'cdbs',
  'pkg-kde-tools',
  'po-debconf',
  'fakeroot',
  'devscripts',
  'lintian',
  'javahelper',
  'gem2deb',
]);

/** True for a package that serves Debian's packaging only (debhelper, dh-*, quilt, …). */
export function isPackagingOnly(name: string): boolean {
  return PACKAGING_ONLY.has(name) || name.startsWith('dh-');
}

/**
 * Tools that typeset documentation (TeX, doxygen's LaTeX and graphs, Sphinx, pandoc): a riscv64
 * build of the programs and libraries does not need them, and under emulation they are the
 * slowest installs there are (libemf's doxygen-latex pulled TeX Live: 648 s). A build that does
 * ask for one (`doxygen not found`) gets it from the install repairs.
 */
const DOCUMENTATION_ONLY = new Set([
  'doxygen',
  'doxygen-latex',
  'doxygen-doc',
  'graphviz',
  'latexmk',
  'lmodern',
  'tex-gyre',
  'pandoc',
  'asciidoctor',
  'ghostscript',
  'inkscape',
  'hevea',
  'latex2html',
  'furo',
]);

/** True for a documentation typesetting tool (doxygen, TeX Live, Sphinx, …). */
export function isDocumentationOnly(name: string): boolean {
  return (
    DOCUMENTATION_ONLY.has(name) ||
    name.startsWith('texlive') ||
    name.startsWith('python3-sphinx') ||
    name.startsWith('sphinx-')
  );
}

/** The fields of a control file's first stanza (the source stanza), continuation lines joined. */
export function sourceStanza(control: string): Map<string, string> {
  const fields = new Map<string, string>();
  let current: string | null = null;
  for (const raw of control.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('#')) continue; // comments are allowed in debian/control
    if (line.trim() === '') {
      if (fields.size > 0) break;
      continue;
    }
    if (/^[ \t]/.test(line)) {
      if (current) fields.set(current, `${fields.get(current)}\n${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    current = line.slice(0, colon).trim().toLowerCase();
    fields.set(current, line.slice(colon + 1).trim());
  }
  return fields;
}

/** riscv64 as a Debian architecture tuple (abi-libc-os-cpu). */
const RISCV64_TUPLE = ['base', 'gnu', 'linux', 'riscv64'];

/**
 * Whether an architecture name or wildcard (`riscv64`, `linux-any`, `any-riscv64`, `any`,
 * `gnu-linux-any`) covers riscv64. A shorter form leaves its leading parts open, so `amd64`
 * and `hurd-i386` do not match and `musl-linux-riscv64` (another libc) does not either.
 */
export function matchesRiscv64(term: string): boolean {
  const parts = term.split('-');
  if (parts.length > RISCV64_TUPLE.length) return false;
  const padded = [...Array(RISCV64_TUPLE.length - parts.length).fill('any'), ...parts];
  return padded.every((part, i) => part === 'any' || part === RISCV64_TUPLE[i]);
}

/** `[amd64 i386]` keeps a package for those only; `[!hurd-any]` for all others. */
function archAllows(list: string): boolean {
  const terms = list.split(/\s+/).filter(Boolean);
  if (terms.length === 0) return true;
  const negated = terms.filter((t) => t.startsWith('!'));
  if (negated.length > 0) return !negated.some((t) => matchesRiscv64(t.slice(1)));
  return terms.some(matchesRiscv64);
}

/**
 * The build profiles rvport builds with: `nodoc` only, Debian's profile for a build without the
 * documentation. A port proves riscv64 binaries; the documentation is the same on every
 * architecture, and its tools (docbook, TeX) cost minutes to install under emulation. A build
 * that needs one after all names it, and the repairs install it then. `nocheck` is not set: the
 * package's tests run.
 */
const ACTIVE_PROFILES: ReadonlySet<string> = new Set(['nodoc']);

/**
 * Build profiles: `<a b> <c>` holds when all terms of one list hold; `!x` holds when profile x
 * is not active, `x` when it is (`cross` or `stage1` never is).
 */
function profilesAllow(lists: readonly string[]): boolean {
  if (lists.length === 0) return true;
  return lists.some((list) =>
    list
      .split(/\s+/)
      .filter(Boolean)
      .every((term) =>
        term.startsWith('!') ? !ACTIVE_PROFILES.has(term.slice(1)) : ACTIVE_PROFILES.has(term),
      ),
  );
}

/**
 * One alternative of a relation (`libfoo-dev:native (>= 1.2) [linux-any] <!nocheck>`): the
 * package name, or null when it does not apply to a riscv64 build or is not a package name.
 */
function parseAlternative(text: string): string | null {
  let rest = text.trim();
  const profiles: string[] = [];
  rest = rest.replace(/<([^>]*)>/g, (_m, list: string) => {
    profiles.push(list);
    return ' ';
  });
  let arch = '';
  rest = rest.replace(/\[([^\]]*)\]/g, (_m, list: string) => {
    arch = `${arch} ${list}`;
    return ' ';
  });
  rest = rest.replace(/\([^)]*\)/g, ' ').trim();
  const name = rest.split(/\s+/)[0]?.replace(/:[a-z0-9-]+$/, '') ?? '';
  if (!DEBIAN_PACKAGE_NAME.test(name)) return null;
  if (!archAllows(arch) || !profilesAllow(profiles)) return null;
  return name;
}

/**
 * The packages a riscv64 build of this Debian source needs, from the source stanza's
 * `Build-Depends` and `Build-Depends-Arch` (`-Indep` builds the architecture-independent
 * packages only): one entry per relation, its alternatives in Debian's order, with those that do
 * not apply to riscv64 or to a normal build removed, and packaging-only and documentation
 * typesetting tools left out.
 * Substitution variables (`${misc:Depends}`) and malformed items are ignored.
 */
export function parseBuildDepends(control: string): string[][] {
  return buildRelations(control).filter(
    (alternatives) => !alternatives.some(isPackagingOnly) && !alternatives.every(isDocumentationOnly),
  );
}

/**
 * The packaging tools a riscv64 build of this source names (debhelper, `dh-sequence-*`, …): what
 * running its own debian/rules needs beyond parseBuildDepends. One package per relation, the
 * first alternative; `debhelper-compat` is debhelper's, which provides it.
 */
export function packagingToolDepends(control: string): string[] {
  const tools = buildRelations(control)
    .filter((alternatives) => alternatives.some(isPackagingOnly))
    .map((alternatives) =>
      alternatives[0] === 'debhelper-compat' ? 'debhelper' : (alternatives[0] as string),
    );
  return [...new Set(tools)];
}

/** The Build-Depends(-Arch) relations that apply to a normal riscv64 build, each once. */
function buildRelations(control: string): string[][] {
  const stanza = sourceStanza(control);
  const relations: string[][] = [];
  const seen = new Set<string>();
  for (const field of ['build-depends', 'build-depends-arch']) {
    const value = stanza.get(field);
    if (!value) continue;
    for (const relation of value.split(',')) {
      if (relation.includes('$')) continue;
      const alternatives = relation
        .split('|')
        .map(parseAlternative)
        .filter((name): name is string => name !== null);
      if (alternatives.length === 0) continue;
      const key = alternatives.join('|');
      if (seen.has(key)) continue;
      seen.add(key);
      relations.push(alternatives);
    }
  }
  return relations;
}
