import { FunctionNode } from '../../../engine/index.ts';
import { portServices } from '../../run/PortServices.ts';
import type { BuildPlan, ExecutedCommand, FixAttempt, PortState } from '../../state/PortState.ts';
import { FUNDAMENTAL_BLOCKERS, SANDBOX_LIMIT_CATEGORIES } from '../../state/vocabulary.ts';
import { classifyInContext } from '../../steps/classifyInContext.ts';
import { escalationReason } from '../../steps/escalation.ts';
import { crossCompiles, frontEndMissing } from '../../steps/frontEndMissing.ts';
import { BuildFixNode } from '../nodeNames.ts';
import { routeBuildResult } from '../routes/routeBuildResult.ts';
import { withAudit } from './audit.ts';
import { BUILD_PHASE_ORDER, freshSource } from './buildSteps.ts';
import { installPlanPackages } from './installPlanPackages.ts';
import { judgeFixUnderTrial } from './judgeFixUnderTrial.ts';
import { makeError, recordError } from './recordError.ts';
import { repairAndRestart } from './repairAndRestart.ts';
import { recordFiringsInto } from './repairWithHeuristics.ts';
import { type PhaseFailure, runPlanPhases } from './runPlanPhases.ts';

/** Heuristic repairs one build may apply before it gives the failure to the fixer. */
export const MAX_REPAIRS_PER_BUILD = 8;

/** How far a build got when a command failed: later phases and later commands count more. */
export function buildProgress(phase: string, commandIndex: number): number {
  return BUILD_PHASE_ORDER.indexOf(phase) * 1000 + commandIndex;
}
/** The progress of a build that failed before its first phase (installing packages). */
const PACKAGES_PROGRESS = -1;

/**
 * Runs the plan in the sandbox from a fresh copy of the source: packages, then the phases in
 * order. A failed command goes to the recovery heuristics first; a repair changes the plan (so
 * a rebuild from scratch repeats it) and the phases run again on a fresh copy of the source (a
 * failed run's leftovers never reach the result). Only what no heuristic repairs is recorded as
 * an error, which counts one attempt.
 */
export const buildNode = FunctionNode<PortState>({
  targets: [BuildFixNode.verify, BuildFixNode.fix, '__end__'],
  then: (s) => routeBuildResult(s.context),
  run: async (s, ctx) => {
    const svc = portServices(ctx.services);
    const state = s.context;
    svc.progress({ type: 'node', node: BuildFixNode.build });
    const started = Date.now();
    if (!state.plan) throw new Error('build without a plan');
    const sandbox = await svc.sandbox.get();
    await freshSource(state, sandbox, svc.home);

    let plan: BuildPlan = state.plan;
    let patches = state.patches;
    const attempt = state.attemptCount + 1;
    const executed: ExecutedCommand[] = [...state.executed];
    const fixAttempts: FixAttempt[] = [...state.fixAttempts];
    const used: Record<string, number> = { ...state.heuristicsUsed };
    const done = (extra: Partial<PortState>): { context: Partial<PortState> } => ({
      context: {
        plan,
        patches,
        executed,
        fixAttempts,
        heuristicsUsed: used,
        timings: { ...state.timings, build: (state.timings.build ?? 0) + Date.now() - started },
        ...extra,
      },
    });

    const judgeFix = async (progress: number): Promise<Partial<PortState>> => {
      const verdict = await judgeFixUnderTrial(state, progress, fixAttempts, sandbox, svc);
      if (verdict.rolledBack) {
        const { plan: before, fixIndex } = verdict.rolledBack;
        plan = before;
        const fix = fixAttempts[fixIndex];
        if (fix) fixAttempts[fixIndex] = { ...fix, outcome: 'rolled-back' };
      }
      return verdict.context;
    };

    const installed = await installPlanPackages(svc, sandbox, state, plan, ctx);
    plan = installed.plan;
    executed.push(...installed.records.map((r) => ({ ...r, attempt })));
    const debian = installed.debian ? { debian: installed.debian } : {};
    if (installed.error) {
      const error = { ...installed.error, progress: PACKAGES_PROGRESS };
      return done({
        ...recordError(state, error),
        ...(await judgeFix(error.progress)),
        buildStatus: 'FAILED',
      });
    }

    const recordFiring = recordFiringsInto(fixAttempts, executed, attempt);
    let repairs = 0;
    const notes: string[] = [];
    for (;;) {
      const failed = await runPlanPhases(svc, sandbox, plan, ctx, { attempt, executed, notes });
      if (!failed) break;
      if (repairs < MAX_REPAIRS_PER_BUILD && !failed.limited) {
        const repaired = await repairAndRestart(
          svc,
          sandbox,
          state,
          { plan, patches },
          failed.failure,
          used,
          recordFiring,
          ctx.signal,
        );
        if (repaired) {
          repairs++;
          ({ plan, patches } = repaired);
          continue;
        }
      }
      return done({ ...(await failedBuild(state, plan, failed, judgeFix)), ...debian });
    }
    return done({
      ...debian,
      fixUnderTrial: null,
      buildStatus: 'SUCCESS',
      builtIn: sandbox.id,
      audit: withAudit(state, BuildFixNode.build, 'built', [`attempt ${attempt}`, ...notes].join('; ')),
    });
  },
});

/**
 * The state of a build whose failure no heuristic repaired: the error, classified in the context
 * of the port, counts one attempt; a blocker no fix can get past (a fundamental one, a sandbox
 * limit, a permission, a front end the mode's cross gcc lacks) goes straight to the escalation,
 * not to the fixer (and runPort redoes the port in emulated mode when it chose the mode).
 */
async function failedBuild(
  state: PortState,
  plan: BuildPlan,
  failed: PhaseFailure,
  judgeFix: (progress: number) => Promise<Partial<PortState>>,
): Promise<Partial<PortState>> {
  const { failure } = failed;
  const error = {
    ...classifyInContext(
      state,
      makeError({ node: BuildFixNode.build, ...failure }),
      failure.output,
      plan.dir,
    ),
    progress: buildProgress(failure.phase, failed.index),
  };
  const judged = await judgeFix(error.progress);
  const recorded = recordError(state, error);
  const stop = escalationReason({ ...state, ...recorded });
  const hopeless =
    stop !== null &&
    (FUNDAMENTAL_BLOCKERS.has(error.category) ||
      SANDBOX_LIMIT_CATEGORIES.has(error.category) ||
      error.category === 'PERMISSION' ||
      (crossCompiles(state.options.mode) && frontEndMissing(error) !== undefined));
  return {
    ...recorded,
    ...judged,
    buildStatus: hopeless ? 'ESCALATED' : 'FAILED',
    ...(hopeless ? { escalationReason: stop } : {}),
    audit: withAudit(state, BuildFixNode.build, 'failed', `${failure.phase}: ${error.category}`),
  };
}
