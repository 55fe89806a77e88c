import { posix } from 'node:path';
import { readTextConfined } from '../fs/index.ts';
import type { BuildPlan } from '../plan/index.ts';
import { buildTreeRoot } from './buildTreeRoot.ts';
import { mapCommands } from './planEdits.ts';
import type { HeuristicContext, HeuristicOutcome } from './RecoveryHeuristic.ts';

/** Which of `candidates` the build's configure script offers (read from its text; never run). */
export function offeredConfigureSwitches(ctx: HeuristicContext, candidates: readonly string[]): string[] {
  const { text } = readTextConfined(buildTreeRoot(ctx), posix.join(ctx.plan.dir, 'configure'));
  if (text === null) return [];
  return candidates.filter((s) => new RegExp(`${s.replace(/[-]/g, '\\-')}(?![\\w-])`).test(text));
}

/** The plan with `switches` added to its ./configure command, or null when it has none. */
export function withConfigureSwitches(plan: BuildPlan, switches: string): BuildPlan | null {
  const next = mapCommands(plan, (c, phase) =>
    phase === 'configure' && /^\.\/configure\b/.test(c) && !c.includes(switches) ? `${c} ${switches}` : c,
  );
  return JSON.stringify(next) === JSON.stringify(plan) ? null : next;
}

/** The outcome of adding `switches` to the configure command: applied, or why not. */
export function configureWithSwitches(
  plan: BuildPlan,
  switches: string,
  description: string,
): HeuristicOutcome {
  const next = withConfigureSwitches(plan, switches);
  return next
    ? { applied: true, description, commands: [], plan: next }
    : { applied: false, description: 'no ./configure command to add the switches to', commands: [] };
}
