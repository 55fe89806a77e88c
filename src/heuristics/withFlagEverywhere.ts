import { confCcFlag } from './confCcFlag.ts';
import { compilerSettingFor, firstMakefile, withMakeVariables } from './makeCommandLine.ts';
import { withCompilerFlag, withPrepareCommands } from './planEdits.ts';
import type { HeuristicContext, HeuristicOutcome } from './RecoveryHeuristic.ts';
import { readTreeFile } from './readTreeFile.ts';

/**
 * The repair of a C compiler flag, wherever the build takes its compiler flags from: CFLAGS in the
 * environment; for a plain makefile that sets its own (`CFLAGS = -Wall -pedantic`, which wins over
 * the environment), `CC='gcc FLAG'` on make's command line; and conf-cc's compile line, where a
 * djb-style build has one.
 */
export async function withCFlagEverywhere(ctx: HeuristicContext, flag: string): Promise<HeuristicOutcome> {
  let plan = withCompilerFlag(ctx.plan, ['CFLAGS'], flag);
  const parts = [`build with CFLAGS including ${flag}`];
  const makefile = ctx.plan.buildSystem === 'make' ? await firstMakefile(ctx) : null;
  const setting = makefile ? compilerSettingFor(makefile.text, 'CC', flag) : undefined;
  if (setting) {
    plan = withMakeVariables(plan, [setting]);
    parts.push(`make with ${setting} (${makefile?.name} sets its own flags)`);
  }
  const commands: string[] = [];
  if ((await readTreeFile(ctx, 'conf-cc')) !== null) {
    commands.push(confCcFlag(flag));
    plan = withPrepareCommands(plan, commands);
    parts.push(`${flag} on the compile line of conf-cc`);
  }
  return { applied: true, description: parts.join(', and '), commands, plan };
}
