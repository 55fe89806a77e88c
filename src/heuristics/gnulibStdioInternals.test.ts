import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GNULIB_STDIO_COMMANDS, gnulibStdioInternals } from './gnulibStdioInternals.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const OLD_FSEEKO = `#include "stdio-impl.h"
int rpl_fseeko (FILE *fp) {
#if defined _IO_ftrylockfile || __GNU_LIBRARY__ == 1 /* GNU libc, BeOS, Haiku, Linux libc5 */
  if (fp->_IO_read_end == fp->_IO_read_ptr && !(fp->_flags & _IO_IN_BACKUP)) return 0;
  fp->_flags &= ~_IO_EOF_SEEN;
#else
  #error "Please port gnulib fseeko.c to your platform!"
#endif
}
`;

describe('gnulib-stdio-internals', () => {
  it("reads gnulib's port error and adds gnulib's fix to the prepare phase", async () => {
    const t = heuristicContext(fixture('gnulib-stdio-internals'), {
      failure: { phase: 'build', command: 'make' },
    });
    const match = await gnulibStdioInternals.match(t.ctx);
    expect(match?.reason).toMatch(/Please port gnulib fseeko\.c/);
    const outcome = await gnulibStdioInternals.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.phases.find((p) => p.name === 'prepare')?.commands).toEqual(GNULIB_STDIO_COMMANDS);
  });

  it('edits every copy of gnulib the way gnulib did, once, and the result compiles on glibc', () => {
    const src = mkdtempSync(join(tmpdir(), 'rvport-gnulib-'));
    try {
      for (const dir of ['lib', 'sub/gl']) {
        mkdirSync(join(src, dir), { recursive: true });
        writeFileSync(join(src, dir, 'fseeko.c'), OLD_FSEEKO);
        writeFileSync(join(src, dir, 'stdio-impl.h'), '#include <stdio.h>\n');
      }
      const run = () =>
        execFileSync('sh', ['-c', GNULIB_STDIO_COMMANDS.join('\n')], {
          env: { ...process.env, RVPORT_SRC: src },
        });
      run();
      run();
      const fseeko = readFileSync(join(src, 'sub/gl/fseeko.c'), 'utf8');
      expect(fseeko).toContain(
        '#if defined _IO_EOF_SEEN || defined _IO_ftrylockfile || __GNU_LIBRARY__ == 1',
      );
      // the old file already names _IO_EOF_SEEN as a flag (gcal's gnulib): edited all the same, once
      expect(fseeko.match(/defined _IO_EOF_SEEN/g)).toHaveLength(1);
      const impl = readFileSync(join(src, 'lib/stdio-impl.h'), 'utf8');
      expect(impl.match(/define _IO_IN_BACKUP 0x100/g)).toHaveLength(1);
      // the host's glibc is 2.36: the edited file compiles where the original stops at #error
      execFileSync('cc', ['-c', '-o', join(src, 'f.o'), join(src, 'lib/fseeko.c')]);
    } finally {
      rmSync(src, { recursive: true, force: true });
    }
  });
});
