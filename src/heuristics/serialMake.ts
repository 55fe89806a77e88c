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

/** make's word for a prerequisite that no rule makes and that is not there (yet). */
const NO_RULE = /No rule to make target [`'‘]([^'’\n]+)['’], needed by/g;
/** What a build makes, never ships: a libtool library or object, an archive, an object. */
const BUILD_PRODUCT = /\.(la|lo|a|o)$/;
/** What a tree ships (or a generator writes under that very name): only its own name shows it built. */
const SOURCE_FILE =
  /\.(c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|inc|s|S|f|f90|y|yy|l|ll|in|am|ac|m4|texi|xml|txt|pc)$/i;
/** An automake silent-rules line (`  CC       libvdemgmt.lo`) or a compile or link's `-o FILE`. */
const BUILT =
  /^\s*(?:CC|CXX|CCLD|CXXLD|AR|RANLIB|GEN|LINK|FC|F77|OBJC|OBJCXX|CCAS|CPPAS|YACC|LEX|MOC|UIC|RCC)\s+(\S+)\s*$|(?:^|\s)-o[ \t]*(\S+)/gm;

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const stemOf = (name: string) => name.replace(/\..*$/, '');

/**
 * A prerequisite make has no rule for that another part of the same parallel build makes: a
 * library named by a relative path (`../../src/lib/libvdemgmt.la`, vde2) that make does not
 * take for the target of the same name, and that one job builds first. It counts when the path
 * is of the tree (not absolute, or under the source root) and it is a build product (.la, .lo,
 * .a, .o) or the output shows it, or a file of its stem, being built; a source file counts only
 * when the output shows a generator writing that very file. Anything else is genuinely missing.
 */
export function racedTarget(output: string, srcDir: string): string | null {
  const built = [...output.matchAll(BUILT)].map((m) => baseName(m[1] ?? m[2] ?? ''));
  for (const [, target = ''] of output.matchAll(NO_RULE)) {
    if (target.startsWith('/') && !target.startsWith(`${srcDir.replace(/\/$/, '')}/`)) continue;
    const name = baseName(target);
    if (!name) continue;
    if (SOURCE_FILE.test(name)) {
      if (built.includes(name)) return target;
    } else if (BUILD_PRODUCT.test(name) || built.some((b) => b === name || stemOf(b) === stemOf(name)))
      return target;
  }
  return null;
}

/**
 * A parallel build that was killed for memory (under emulation that happens) or that raced
 * its own outputs (a folder or input not there yet, a target it makes elsewhere and needed
 * first): run that command again with one job.
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
    const raced = racedTarget(output, ctx.srcDir);
    if (raced)
      return {
        key: command,
        reason: `another part of the parallel build makes ${raced}, which it needed first`,
      };
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
