import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildPlan } from '../port/PortState.ts';
import { mapCommands } from './planEdits.ts';
import type { HeuristicContext, HeuristicOutcome } from './RecoveryHeuristic.ts';

/** Which of `candidates` the build's configure script offers (read from its text; never run). */
export function offeredConfigureSwitches(ctx: HeuristicContext, candidates: readonly string[]): string[] {
  const configure = join(ctx.sandbox.workspace, 'src', ctx.plan.dir, 'configure');
  if (!existsSync(configure)) return [];
  const text = readFileSync(configure, 'utf8');
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
