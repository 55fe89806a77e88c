import { withPrepareCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * `#error "Please port gnulib fseeko.c to your platform!"`: gnulib from before 2018 reads
 * stdio's internals through `_IO_ftrylockfile` and `_IO_IN_BACKUP`, which glibc 2.28 stopped
 * exporting, so every stdio replacement (fseeko, fflush, fpurge, freadahead, freading, fseterr)
 * takes its "unknown platform" branch. gnulib's own fix tests `_IO_EOF_SEEN`, which glibc still
 * defines, and defines the two flag values in stdio-impl.h; the same edit is made here, in the
 * sandbox, on every copy of gnulib in the tree (idempotent: files already fixed are left alone;
 * "fixed" is the test `defined _IO_EOF_SEEN`, not the name, which the old fseeko.c uses as a flag).
 */
const GNULIB_PORT_ERROR = /#error "Please port gnulib \w+\.c to your platform!/;

/** The glibc flag values gnulib's fix adds (stable in glibc's FILE since the 1990s). */
const STDIO_IMPL_ADDITION = [
  '',
  '#if defined _IO_EOF_SEEN',
  '# if !defined _IO_UNBUFFERED',
  '#  define _IO_UNBUFFERED 0x2',
  '# endif',
  '# if !defined _IO_IN_BACKUP',
  '#  define _IO_IN_BACKUP 0x100',
  '# endif',
  '#endif',
  '',
].join('\\n');

export const GNULIB_STDIO_COMMANDS: readonly string[] = [
  `grep -rlZ --include='*.c' -e 'defined _IO_ftrylockfile' "$RVPORT_SRC" | xargs -0 -r grep -LZ 'defined _IO_EOF_SEEN' | xargs -0 -r sed -i 's/defined _IO_ftrylockfile/defined _IO_EOF_SEEN || defined _IO_ftrylockfile/g'`,
  `find "$RVPORT_SRC" -name stdio-impl.h -type f -print0 | xargs -0 -r grep -LZ '_IO_IN_BACKUP 0x100' | xargs -0 -r -I{} sh -c 'printf "${STDIO_IMPL_ADDITION}" >> "$1"' sh {}`,
];

export const gnulibStdioInternals: RecoveryHeuristic = {
  name: 'gnulib-stdio-internals',
  description: "adapt an old gnulib's stdio replacements to glibc 2.28 and later (gnulib's own fix)",
  match(ctx) {
    const line = ctx.failure.output.split('\n').find((l) => GNULIB_PORT_ERROR.test(l) && /error/.test(l));
    return line ? { key: 'gnulib-stdio', reason: `old gnulib code: ${line.trim()}` } : null;
  },
  async apply(ctx) {
    return {
      applied: true,
      description:
        'gnulib stdio replacements test _IO_EOF_SEEN and stdio-impl.h defines _IO_IN_BACKUP (as gnulib since 2018)',
      commands: [...GNULIB_STDIO_COMMANDS],
      plan: withPrepareCommands(ctx.plan, GNULIB_STDIO_COMMANDS),
    };
  },
};
