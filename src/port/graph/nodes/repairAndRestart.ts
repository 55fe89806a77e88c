import { appendFile } from 'node:fs/promises';
import type { FailedStep, HeuristicContext, HeuristicFiring } from '../../../heuristics/index.ts';
import type { Sandbox } from '../../../sandbox/index.ts';
import { installableOf, type PortServices } from '../../run/PortServices.ts';
import type { BuildPlan, PortState } from '../../state/PortState.ts';
import { findPackageFor } from '../../steps/findPackageFor.ts';
import { heuristicFacts } from '../../steps/heuristicFacts.ts';
import { SANDBOX_SRC } from '../../steps/planFromAnalysis.ts';
import { freshSource } from './buildSteps.ts';
import { repairWithHeuristics } from './repairWithHeuristics.ts';

/** What the heuristics see of a failure: the plan and patches so far, the port's facts, the sandbox. */
export function heuristicContextFor(
  svc: PortServices,
  sandbox: Sandbox,
  state: PortState,
  current: { plan: BuildPlan; patches: PortState['patches'] },
  failure: FailedStep,
  signal: AbortSignal,
): HeuristicContext {
  return {
    failure,
    plan: current.plan,
    ...heuristicFacts(state, current.patches),
    sandbox,
    srcDir: SANDBOX_SRC,
    findPackage: async (kind, name) => findPackageFor(await svc.contents(), kind, name),
    installable: () => installableOf(svc),
    signal,
    log: (line) => svc.progress({ type: 'note', message: line }),
  };
}

/**
 * Gives a failed command to the recovery heuristics. When one repairs it, the repair changes the
 * plan or the patches (so a rebuild from scratch repeats it), build.log says so, and the source
 * in the sandbox is copied in afresh: what the failed run left in the tree (objects, programs,
 * generated files) must not become part of the result. Answers the repaired plan and patches, or
 * null when no heuristic fired.
 */
export async function repairAndRestart(
  svc: PortServices,
  sandbox: Sandbox,
  state: PortState,
  current: { plan: BuildPlan; patches: PortState['patches'] },
  failure: FailedStep,
  used: Record<string, number>,
  recordFiring: (firing: HeuristicFiring) => void,
  signal: AbortSignal,
): Promise<{ plan: BuildPlan; patches: PortState['patches'] } | null> {
  const hctx = heuristicContextFor(svc, sandbox, state, current, failure, signal);
  const firing = await repairWithHeuristics(svc.heuristics, hctx, used, recordFiring);
  if (!firing) return null;
  const plan = firing.outcome.plan ?? current.plan;
  const patches = firing.outcome.patches ? [...current.patches, ...firing.outcome.patches] : current.patches;
  await appendFile(
    svc.buildLog,
    `\n### rvport: ${firing.heuristic}: ${firing.outcome.description}; running the plan again on a fresh copy of the source\n`,
  );
  await freshSource({ ...state, plan, patches }, sandbox, svc.home);
  return { plan, patches };
}
