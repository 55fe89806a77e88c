import { appendFile } from 'node:fs/promises';
import { FunctionNode } from '../../engine/nodes/FunctionNode.ts';
import type { HeuristicContext } from '../../heuristics/RecoveryHeuristic.ts';
import type { HeuristicFiring } from '../../heuristics/runHeuristics.ts';
import { classifyInContext } from '../classifyInContext.ts';
import { escalationReason } from '../escalation.ts';
import { findPackageFor } from '../findPackageFor.ts';
import { BuildFixNode } from '../nodeNames.ts';
import { portServices } from '../PortServices.ts';
import type { BuildPlan, ExecutedCommand, FixAttempt, PlanPhase, PortState } from '../PortState.ts';
import { SANDBOX_SRC } from '../planFromAnalysis.ts';
import { routeBuildResult } from '../routes/routeBuildResult.ts';
import { FUNDAMENTAL_BLOCKERS, LIMIT_CATEGORY, SANDBOX_LIMIT_CATEGORIES } from '../vocabulary.ts';
import { withAudit } from './audit.ts';
import { BUILD_PHASE_ORDER, BUILD_PHASES, freshSource, runLogged } from './buildSteps.ts';
import { installPlanPackages } from './installPlanPackages.ts';
import { judgeFixUnderTrial } from './judgeFixUnderTrial.ts';
import { makeError, recordError } from './recordError.ts';
import { firingRecords, repairWithHeuristics } from './repairWithHeuristics.ts';

/** Heuristic repairs one build may apply before it gives the failure to the fixer. */
export const MAX_REPAIRS_PER_BUILD = 8;
/** Bytes of a failed command's output the heuristics and the error record see. */
const FAILURE_OUTPUT_BYTES = 64 * 1024;

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

    const recordFiring = (firing: HeuristicFiring): void => {
      const records = firingRecords(firing, attempt);
      fixAttempts.push(records.fixAttempt);
      executed.push(...records.executed);
    };
    let repairs = 0;
    const notes: string[] = [];
    restart: for (;;) {
      const runnable: PlanPhase[] = plan.phases.filter((p) => BUILD_PHASES.has(p.name));
      phases: for (const phase of runnable) {
        for (const [index, command] of phase.commands.entries()) {
          svc.progress({ type: 'phase', phase: phase.name, command });
          const result = await runLogged(svc, sandbox, plan, phase.name, command, ctx);
          executed.push({
            phase: phase.name,
            command,
            exitCode: result.exitCode,
            durationMs: Math.round(result.durationMs),
            attempt,
            origin: 'plan',
          });
          if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('interrupted');
          if (result.exitCode === 0) continue;
          if (phase.optional) {
            notes.push(`the optional ${phase.name} step failed (exit ${result.exitCode}): ${command}`);
            continue phases;
          }

          const failure = {
            phase: phase.name,
            command,
            output: `${result.stdout}\n${result.stderr}`.slice(-FAILURE_OUTPUT_BYTES),
            exitCode: result.exitCode,
            timedOut: result.timedOut,
            ...(result.limit
              ? { category: LIMIT_CATEGORY[result.limit.kind], evidence: result.limit.detail }
              : {}),
          };
          if (repairs < MAX_REPAIRS_PER_BUILD && !result.timedOut && !result.limit) {
            const hctx: HeuristicContext = {
              failure,
              plan,
              state,
              sandbox,
              srcDir: SANDBOX_SRC,
              findPackage: async (kind, name) => findPackageFor(await svc.contents(), kind, name),
              signal: ctx.signal,
              log: (line) => svc.progress({ type: 'note', message: line }),
            };
            const firing = await repairWithHeuristics(svc.heuristics, hctx, used, recordFiring);
            if (firing) {
              repairs++;
              if (firing.outcome.plan) plan = firing.outcome.plan;
              if (firing.outcome.patches) patches = [...patches, ...firing.outcome.patches];
              await appendFile(
                svc.buildLog,
                `\n### rvport: ${firing.heuristic}: ${firing.outcome.description}; running the plan again on a fresh copy of the source\n`,
              );
              // What the failed run left in the tree (objects, programs, generated files) must
              // not become part of the result: the final plan is proven from a clean source.
              await freshSource({ ...state, plan, patches }, sandbox, svc.home);
              continue restart;
            }
          }
          const error = {
            ...classifyInContext(
              state,
              makeError({ node: BuildFixNode.build, ...failure }),
              failure.output,
              plan.dir,
            ),
            progress: buildProgress(phase.name, index),
          };
          const judged = await judgeFix(error.progress);
          const recorded = recordError(state, error);
          // A blocker no fix can get past goes straight to the escalation, not to the fixer.
          const stop = escalationReason({ ...state, ...recorded });
          const hopeless =
            stop !== null &&
            (FUNDAMENTAL_BLOCKERS.has(error.category) ||
              SANDBOX_LIMIT_CATEGORIES.has(error.category) ||
              error.category === 'PERMISSION');
          return done({
            ...recorded,
            ...judged,
            ...debian,
            buildStatus: hopeless ? 'ESCALATED' : 'FAILED',
            ...(hopeless ? { escalationReason: stop } : {}),
            audit: withAudit(state, BuildFixNode.build, 'failed', `${phase.name}: ${error.category}`),
          });
        }
      }
      break;
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
