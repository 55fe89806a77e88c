import type { BuildPlan } from '../plan/index.ts';
import { confCcFlag } from './confCcFlag.ts';
import { compilerSettingFor, firstMakefile, withMakeVariables } from './makeCommandLine.ts';
import { withCompilerFlag, withPrepareCommands } from './planEdits.ts';
import type { HeuristicContext, HeuristicOutcome } from './RecoveryHeuristic.ts';
import { readTreeFile } from './readTreeFile.ts';

/**
 * A compiler flag in the environment's flags variable (CFLAGS or CXXFLAGS), and, for a plain
 * makefile that sets its own (`CFLAGS = -Wall -pedantic`, which wins over the environment, or
 * `$(CXX) $(CFLAGS)`), the compiler with the flag on make's command line (`CC='gcc FLAG'`).
 */
async function withFlagForMake(
  ctx: HeuristicContext,
  compiler: 'CC' | 'CXX',
  flag: string,
): Promise<{ plan: BuildPlan; parts: string[] }> {
  const flags = compiler === 'CXX' ? 'CXXFLAGS' : 'CFLAGS';
  const plan = withCompilerFlag(ctx.plan, [flags], flag);
  const parts = [`build with ${flags} including ${flag}`];
  const makefile = ctx.plan.buildSystem === 'make' ? await firstMakefile(ctx) : null;
  const setting = makefile ? compilerSettingFor(makefile.text, compiler, flag) : undefined;
  if (!setting) return { plan, parts };
  parts.push(`make with ${setting} (${makefile?.name} sets its own flags)`);
  return { plan: withMakeVariables(plan, [setting]), parts };
}

/**
 * The repair of a C compiler flag, wherever the build takes its compiler flags from: CFLAGS in the
 * environment, make's command line for a plain makefile with flags of its own (withFlagForMake),
 * and conf-cc's compile line, where a djb-style build has one.
 */
export async function withCFlagEverywhere(ctx: HeuristicContext, flag: string): Promise<HeuristicOutcome> {
  const made = await withFlagForMake(ctx, 'CC', flag);
  let { plan } = made;
  const parts = [...made.parts];
  const commands: string[] = [];
  if ((await readTreeFile(ctx, 'conf-cc')) !== null) {
    commands.push(confCcFlag(flag));
    plan = withPrepareCommands(plan, commands);
    parts.push(`${flag} on the compile line of conf-cc`);
  }
  return { applied: true, description: parts.join(', and '), commands, plan };
}

/** The repair of a C++ compiler flag: CXXFLAGS, and make's CXX where a makefile sets its own flags. */
export async function withCxxFlagEverywhere(ctx: HeuristicContext, flag: string): Promise<HeuristicOutcome> {
  const { plan, parts } = await withFlagForMake(ctx, 'CXX', flag);
  return { applied: true, description: parts.join(', and '), commands: [], plan };
}
