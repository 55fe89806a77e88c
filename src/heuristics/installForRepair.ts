import type { HeuristicContext, HeuristicOutcome } from './RecoveryHeuristic.ts';

/** An install a repair made: the command it logs, and the outcome to return when it failed. */
export interface RepairInstall {
  /** The apt-get line, as the recipe and the report show it. */
  command: string;
  /** Set when the install failed: not applied, apt's last line appended to `failure`. */
  failed?: HeuristicOutcome;
}

/** Installs packages in the sandbox for a repair, the one way every repair does it. */
export async function installForRepair(
  ctx: Pick<HeuristicContext, 'sandbox' | 'signal'>,
  packages: readonly string[],
  failure: string,
): Promise<RepairInstall> {
  const command = `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  const result = await ctx.sandbox.installPackages(packages, ctx.signal ? { signal: ctx.signal } : {});
  if (result.exitCode === 0) return { command };
  const last = result.stderr.trim().split('\n').at(-1);
  return {
    command,
    failed: { applied: false, description: last ? `${failure}: ${last}` : failure, commands: [command] },
  };
}
