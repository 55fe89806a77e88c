import { shellQuote } from '../process/shellQuote.ts';

/** Build files a flag can be written into (never sources). */
const BUILD_FILES = [
  'configure',
  'configure.ac',
  'configure.in',
  'Makefile',
  'makefile',
  'GNUmakefile',
  'Makefile.in',
  'Makefile.am',
  '*.mk',
  '*.mak',
  'CMakeLists.txt',
  '*.cmake',
  'meson.build',
  'SConstruct',
  'SConscript',
  'wscript',
];

/**
 * A prepare command that replaces `from` by `to` in the build files of the tree (literal text,
 * not a pattern). Idempotent, so a rebuild from scratch repeats it safely.
 */
export function replaceInBuildFiles(from: string, to: string): string {
  const includes = BUILD_FILES.map((f) => `--include=${shellQuote(f)}`).join(' ');
  const sedFrom = from.replace(/[\\/.*[\]^$&]/g, '\\$&');
  const sedTo = to.replace(/[\\/&]/g, '\\$&');
  return `grep -rlZF ${includes} -e ${shellQuote(from)} "$RVPORT_SRC" | xargs -0 -r sed -i ${shellQuote(`s/${sedFrom}/${sedTo}/g`)}`;
}
