import { posix } from 'node:path';
import { shellQuote } from '../process/shellQuote.ts';
import { withBuildPhaseFirst, withEnv } from './planEdits.ts';
import type { HeuristicContext, HeuristicOutcome, RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { readTreeFile } from './readTreeFile.ts';

/**
 * `…/libm.so.6: error adding symbols: DSO missing from command line`: the program calls a
 * library (`hypot` in libm) that the link line never names, which older linkers forgave by
 * following another library's dependencies. The library is named on the link: first in LDFLAGS
 * and LIBS, which configure, CMake, meson and most Makefiles read; then, for a Makefile whose
 * link rule reads neither, on the recipe line make reports failing (`[Makefile.linux:31: easychem]`),
 * edited at the start of the build phase, where a Makefile configure writes exists.
 */
const DSO_MISSING =
  /(?:^|[\s/])lib([\w+-]+(?:\.[\w+-]+)*?)\.so(?:\.\d+)*: error adding symbols: DSO missing from command line/m;
/** The innermost failing recipe line: `make[1]: *** [makefile:74: edbrowse] Error 1`. */
const FAILED_RULE = /^g?make(?:\[(\d+)\])?: \*\*\* \[([^:\]\s]+):(\d+): [^\]]*\] Error \d+/m;

interface FailedRule {
  /** The Makefile, relative to the source root. */
  file: string;
  line: number;
}

export const linkNamedLibrary: RecoveryHeuristic = {
  name: 'link-named-library',
  description: 'name on the link line a library the program uses but the link leaves out (DSO missing)',
  match(ctx) {
    const lib = DSO_MISSING.exec(ctx.failure.output)?.[1];
    if (!lib) return null;
    const flag = `-l${lib}`;
    if (!(ctx.plan.env?.LIBS ?? '').split(/\s+/).includes(flag))
      return { key: `env:${lib}`, reason: `the link uses lib${lib} without naming it (${flag})` };
    const rule = failedRule(ctx);
    return rule
      ? {
          key: `rule:${lib}:${rule.file}:${rule.line}`,
          reason: `the link at ${rule.file}:${rule.line} uses lib${lib} without naming it and reads neither LDFLAGS nor LIBS`,
        }
      : null;
  },
  async apply(ctx, match) {
    const [stage, lib, ...where] = match.key.split(':');
    const flag = `-l${lib}`;
    if (stage === 'env') {
      const plan = withEnv(withEnv(ctx.plan, 'LDFLAGS', flag, 'append'), 'LIBS', flag, 'append');
      return { applied: true, description: `link with ${flag} (LDFLAGS and LIBS)`, commands: [], plan };
    }
    return onRecipeLine(ctx, where.slice(0, -1).join(':'), Number(where.at(-1)), flag);
  },
};

/** The Makefile and line of the recipe make reports failing, relative to the source root. */
function failedRule(ctx: HeuristicContext): FailedRule | null {
  const output = ctx.failure.output;
  const m = FAILED_RULE.exec(output);
  if (!m?.[2] || !m[3]) return null;
  // the folder that make level entered last before the failure, else the plan's own folder
  const level = m[1];
  const before = output.slice(0, m.index);
  const entered = level
    ? [...before.matchAll(new RegExp(`^g?make\\[${level}\\]: Entering directory '([^']+)'`, 'gm'))].at(
        -1,
      )?.[1]
    : undefined;
  const dir = entered ?? posix.join(ctx.srcDir, ctx.plan.dir);
  const file = posix.relative(ctx.srcDir, posix.resolve(dir, m[2]));
  if (file.startsWith('..') || posix.isAbsolute(file)) return null;
  return { file, line: Number(m[3]) };
}

/** The flag appended to the recipe line, when that line is a link (`-o`, no `-c`) that ends there. */
async function onRecipeLine(
  ctx: HeuristicContext,
  file: string,
  line: number,
  flag: string,
): Promise<HeuristicOutcome> {
  const fromPlanDir = posix.relative(ctx.plan.dir === '.' ? '' : ctx.plan.dir, file);
  const text = await readTreeFile(ctx, fromPlanDir);
  const recipe = text?.split('\n')[line - 1] ?? '';
  const isLink =
    /(^|\s)-o\s/.test(recipe) && !/(^|\s)-c(\s|$)/.test(recipe) && !recipe.trimEnd().endsWith('\\');
  if (!isLink)
    return {
      applied: false,
      description: `${file}:${line} is not a link command rvport can extend`,
      commands: [],
    };
  const word = flag.replace(/[.+]/g, '\\$&');
  const command = `sed -i ${shellQuote(`${line}{/ ${word}$/!s/$/ ${flag}/}`)} "$RVPORT_SRC"/${shellQuote(file)}`;
  return {
    applied: true,
    description: `link with ${flag} on the recipe line ${file}:${line}`,
    commands: [command],
    plan: withBuildPhaseFirst(ctx.plan, [command]),
  };
}
