import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { withCFlagEverywhere } from './withFlagEverywhere.ts';

/**
 * Old code that declares `extern int errno;` itself, against a glibc whose errno is thread-local:
 * the link stops with `errno: TLS definition in libc.so.6 … mismatches non-TLS reference`.
 * Including <errno.h> in every unit first (`-include errno.h`) makes the declaration one of
 * glibc's `errno` macro, which is how distributions have built such code (djb's tools among it).
 */
const TLS_MISMATCH =
  /\berrno: TLS definition in \S*libc\.so[.\d]* section \.tbss mismatches non-TLS reference/;

export const externErrno: RecoveryHeuristic = {
  name: 'extern-errno',
  description: 'compile with -include errno.h (old code declares errno itself, glibc makes it thread-local)',
  match(ctx) {
    const line = ctx.failure.output.split('\n').find((l) => TLS_MISMATCH.test(l));
    return line
      ? { key: 'errno', reason: `a unit declares errno itself: ${line.replace(/^\S*\/ld: /, '').trim()}` }
      : null;
  },
  apply(ctx) {
    return withCFlagEverywhere(ctx, '-include errno.h');
  },
};
