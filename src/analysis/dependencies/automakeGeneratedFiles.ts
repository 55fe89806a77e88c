import type { DependencyExtractor, RawDependency } from './Dependency.ts';

/**
 * What automake makes from a source a release tarball ships already made, and the program that
 * makes it: a parser from `parse.y`, a scanner from `scan.l`, an Info manual from `manual.texi`.
 */
const GENERATORS: ReadonlyArray<{ source: RegExp; output: (stem: string) => string[]; program: string }> = [
  { source: /\.y$/, output: (s) => [`${s}.c`], program: 'bison' },
  { source: /\.(yy|ypp|y\+\+)$/, output: (s) => [`${s}.cc`, `${s}.cpp`, `${s}.c++`], program: 'bison' },
  { source: /\.l$/, output: (s) => [`${s}.c`], program: 'flex' },
  { source: /\.(ll|lpp|l\+\+)$/, output: (s) => [`${s}.cc`, `${s}.cpp`, `${s}.c++`], program: 'flex' },
];

/** `name = value \` continued over several lines, joined, with the line it starts on. */
function assignments(lines: readonly string[]): { name: string; value: string; line: number }[] {
  const out: { name: string; value: string; line: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let text = lines[i] ?? '';
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1)} ${lines[++i] ?? ''}`;
    const m = /^([A-Za-z_][\w@]*)\s*[+:]?=(.*)$/.exec(text);
    if (m) out.push({ name: m[1] as string, value: (m[2] as string).replace(/#.*/, ''), line: start + 1 });
  }
  return out;
}

const words = (value: string) => value.split(/\s+/).filter((w) => w && !/[$@]/.test(w));
const joinDir = (dir: string, name: string) => (dir ? `${dir}/${name}` : name).replace(/(^|\/)\.\//g, '$1');

/**
 * The generators a checkout needs where a release tarball carries their output: a `.y` or `.l`
 * in a Makefile.am's sources without the `.c` next to it needs bison or flex, an
 * `info_TEXINFOS` manual without its `.info` needs makeinfo, and a man page a rule makes with
 * help2man, absent from the tree, needs help2man. `make all` runs each of them, so they are
 * required (a git checkout of flex met bison, flex, help2man and makeinfo one build after another).
 */
export const automakeGeneratedFiles: DependencyExtractor = {
  name: 'automake-generated-files',
  files: /(^|\/)Makefile\.am$/,
  buildSystems: ['autotools'],
  // a manual in doc/ is built by `make all` too
  alsoInSkippedFolders: /^docs?\//i,
  extract(file) {
    const exists = file.exists;
    if (!exists) return [];
    const dir = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '';
    const deps: RawDependency[] = [];
    const push = (name: string, line: number) => {
      if (!deps.some((d) => d.name === name))
        deps.push({ kind: 'program', name, file: file.path, line, required: true });
    };
    const vars = assignments(file.lines);
    for (const { name, value, line } of vars) {
      if (/_SOURCES$/.test(name)) {
        for (const word of words(value)) {
          const generator = GENERATORS.find((g) => g.source.test(word));
          if (!generator) continue;
          const stem = word.replace(/\.[^./]+$/, '');
          if (!generator.output(stem).some((o) => exists(joinDir(dir, o)))) push(generator.program, line);
        }
      }
      if (/^info_TEXINFOS$/.test(name)) {
        const absent = words(value).some(
          (w) => !exists(joinDir(dir, w.replace(/\.(texi|texinfo|txi)$/, '.info'))),
        );
        if (absent) push('makeinfo', line);
      }
    }
    const helpLine = file.lines.findIndex((l) => /^\t.*(\$\(HELP2MAN\)|\bhelp2man\b)/.test(l));
    if (helpLine !== -1) {
      const pages = vars
        .filter((v) => /^(dist_|nodist_)?man\d?_MANS$/.test(v.name))
        .flatMap((v) => words(v.value));
      if (pages.some((p) => !exists(joinDir(dir, p)))) push('help2man', helpLine + 1);
    }
    return deps;
  },
};
