import { installNamedDependency, keyOf, parseKey } from './installNamedDependency.ts';
import type { HeuristicContext, HeuristicMatch, RecoveryHeuristic } from './RecoveryHeuristic.ts';

const NAME = '[A-Za-z][\\w+.-]*';
/**
 * A build script's own words for a missing program, the name ending the sentence: `cannot find
 * protoc`, `gperf must be in the path`, `bison is required but was not found`.
 */
const TOOL_MESSAGES: readonly RegExp[] = [
  new RegExp(
    `(?:^|: )(?:cannot|can't|could not|couldn't|unable to) find (?:the )?(?:program |tool |executable )?['"\`‘]?(${NAME}?)['"’]?(?: (?:program|executable|in (?:the |your )?\\$?PATH))?[.!]?\\s*$`,
    'im',
  ),
  new RegExp(
    `(?:^|[\\s:'"\`‘])(${NAME}?)['"’]? (?:must|needs to) be (?:installed and )?in (?:the |your )?\\$?PATH`,
    'im',
  ),
  new RegExp(`(?:^|[\\s:'"\`‘])(${NAME}?)['"’]? (?:is )?required,? but (?:was |is )?not found`, 'im'),
  // autogen.sh's own check: "**Error**: You must have `libtool' installed."
  new RegExp(`You must have (?:the )?['"\`‘]?(${NAME}?)['"’]? (?:\\(?[^)\\n]*\\)? )?installed`, 'im'),
  // `so gnustep-config is not in your PATH.` (a Makefile's own $(warning) lines)
  new RegExp(`(?:^|[\\s:'"\`‘])(${NAME}?)['"’]? is not (?:installed )?in (?:the |your )?\\$?PATH`, 'im'),
];
/** Words these sentences also use for things that are not programs. */
const NOT_A_PROGRAM = new Set([
  'file',
  'files',
  'it',
  'them',
  'one',
  'any',
  'library',
  'header',
  'package',
  'module',
]);

export function missingTool(output: string): string | null {
  for (const pattern of TOOL_MESSAGES) {
    const name = pattern.exec(output)?.[1];
    if (
      name &&
      !NOT_A_PROGRAM.has(name.toLowerCase()) &&
      !/\.(h|hh|hpp|c|cc|cpp|o|lo|la|so|a|pc|cmake|txt|m4|in|am|ac)$/.test(name)
    )
      return name;
  }
  return null;
}

/**
 * A build tool named only in the build's own words (`cannot find protoc`, `gperf must be in
 * the path`): the Debian package that installs the program is installed and added to the plan.
 */
export const missingBuildTool: RecoveryHeuristic = {
  name: 'missing-build-tool',
  description: 'install the Debian package of a program the build says it cannot find',
  match(ctx: HeuristicContext): HeuristicMatch | null {
    const name = missingTool(ctx.failure.output);
    return name
      ? { key: keyOf([{ kind: 'command', name }]), reason: `the build cannot find the program ${name}` }
      : null;
  },
  apply(ctx, match) {
    return installNamedDependency(ctx, parseKey(match.key), 'the build looked for');
  },
};
