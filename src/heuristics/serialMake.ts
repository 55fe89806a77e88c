import { mapCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

const OUT_OF_MEMORY =
  /Killed signal terminated program|virtual memory exhausted|out of memory|Cannot allocate memory|signal 9/i;
/** A parallel make racing itself: a target's folder or input not there yet. */
const RACE =
  /(cannot create (regular file|directory)|can't create|cannot open output file|mv: cannot stat|cannot open .* for writing)[^\n]*No such file or directory/;
// `-j1` is not parallel: a command already run with one job is not retried with one job
const PARALLEL = /-j\s*"\$\(nproc\)"|-j\s*(?!1(?!\d))\d+|--jobs(=(?!1(?!\d))\d+)?(?!=)/;
/**
 * A header no Debian package provides (the package heuristic came first and found none) missing
 * in a parallel build: most likely one the build generates and a rule did not wait for (arj's
 * msg_arj.h).
 */
const MISSING_GENERATED_HEADER = /fatal error: [\w+./-]+\.(h|hh|hpp|inc): No such file or directory/;

/**
 * A parallel build that was killed for memory (under emulation that happens) or that raced
 * its own outputs: run that command again with one job.
 */
export const serialMake: RecoveryHeuristic = {
  name: 'retry-with-one-job',
  description: 'run a failed parallel build again with one job (out of memory, or a race)',
  match(ctx) {
    const { command, output, exitCode } = ctx.failure;
    if (!PARALLEL.test(command)) return null;
    if (OUT_OF_MEMORY.test(output) || exitCode === 137)
      return { key: command, reason: 'the parallel build ran out of memory' };
    if (RACE.test(output))
      return { key: command, reason: 'the parallel build may have raced its own outputs' };
    if (MISSING_GENERATED_HEADER.test(output))
      return { key: command, reason: 'a header the build generates may not have been made yet' };
    return null;
  },
  async apply(ctx, match) {
    const serial = match.key.replace(PARALLEL, '-j1');
    const plan = mapCommands(ctx.plan, (c) => (c === match.key ? serial : c));
    return {
      applied: true,
      description: `run \`${serial}\` instead of \`${match.key}\``,
      commands: [],
      plan,
    };
  },
};
