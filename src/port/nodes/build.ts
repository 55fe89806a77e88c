import { appendFile } from 'node:fs/promises';
import { FunctionNode } from '../../engine/nodes/FunctionNode.ts';
import type { HeuristicContext } from '../../heuristics/RecoveryHeuristic.ts';
import { type HeuristicFiring, runHeuristics } from '../../heuristics/runHeuristics.ts';
import { severityOf } from '../classifyError.ts';
import { escalationReason } from '../escalation.ts';
import { findPackageFor } from '../findPackageFor.ts';
import { describeSubmodule, missingSubmoduleIn } from '../missingSubmodule.ts';
import { BuildFixNode } from '../nodeNames.ts';
import { portServices } from '../PortServices.ts';
import type {
  BuildPlan,
  ErrorRecord,
  ExecutedCommand,
  FixAttempt,
  PlanPhase,
  PortState,
} from '../PortState.ts';
import { SANDBOX_SRC } from '../planFromAnalysis.ts';
import { routeBuildResult } from '../routes/routeBuildResult.ts';
import { FUNDAMENTAL_BLOCKERS, LIMIT_CATEGORY, SANDBOX_LIMIT_CATEGORIES } from '../vocabulary.ts';
import { withAudit } from './audit.ts';
import { BUILD_PHASE_ORDER, BUILD_PHASES, freshSource, runLogged } from './buildSteps.ts';
import { installPlanPackages } from './installPlanPackages.ts';
import { makeError, recordError } from './recordError.ts';

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
    const attempt = state.attemptCount + 1;
    const executed: ExecutedCommand[] = [...state.executed];
    const fixAttempts: FixAttempt[] = [...state.fixAttempts];
    const used: Record<string, number> = { ...state.heuristicsUsed };
    const done = (extra: Partial<PortState>): { context: Partial<PortState> } => ({
      context: {
        plan,
        executed,
        fixAttempts,
        heuristicsUsed: used,
        timings: { ...state.timings, build: (state.timings.build ?? 0) + Date.now() - started },
        ...extra,
      },
    });

    /**
     * An LLM fix is kept unless the build it was tried in failed earlier than the one it fixed;
     * then the plan, the patches and the sandbox go back to how they were before it.
     */
    const judgeFix = async (progress: number): Promise<Partial<PortState>> => {
      const trial = state.fixUnderTrial;
      if (!trial) return {};
      if (trial.baselineProgress === null || progress >= trial.baselineProgress)
        return { fixUnderTrial: null };
      plan = trial.planBefore;
      const rolledBack = fixAttempts[trial.fixIndex];
      if (rolledBack) fixAttempts[trial.fixIndex] = { ...rolledBack, outcome: 'rolled-back' };
      let note = 'the sandbox is as it was before the fix';
      if (trial.snapshot) {
        await sandbox.rollback(trial.snapshot).catch((e: Error) => {
          note = `the sandbox snapshot is gone (${e.message}); a fresh build starts clean anyway`;
        });
      }
      await appendFile(
        svc.buildLog,
        `\n### rvport: the fix "${rolledBack?.name ?? '?'}" made the build fail earlier; rolled back (${note})\n`,
      );
      svc.progress({
        type: 'note',
        message: `rolled back the fix "${rolledBack?.name}": the build failed earlier`,
      });
      return { fixUnderTrial: null, patches: trial.patchesBefore };
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
      fixAttempts.push({
        at: new Date().toISOString(),
        attempt,
        source: 'heuristic',
        name: firing.heuristic,
        description: firing.outcome.description,
        commands: firing.outcome.commands,
        outcome: firing.outcome.applied ? 'applied' : 'failed',
      });
      for (const c of firing.outcome.commands) {
        executed.push({
          phase: 'repair',
          command: c,
          exitCode: firing.outcome.applied ? 0 : 1,
          durationMs: 0,
          attempt,
          origin: 'heuristic',
        });
      }
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
            // A heuristic that matched but could not act (no package provides the header) gives
            // the next matching one its turn.
            let firing = await runHeuristics(svc.heuristics, hctx, used);
            while (firing && !firing.outcome.applied) {
              used[firing.key] = (used[firing.key] ?? 0) + 1;
              recordFiring(firing);
              firing = await runHeuristics(svc.heuristics, hctx, used);
            }
            if (firing) {
              used[firing.key] = (used[firing.key] ?? 0) + 1;
              recordFiring(firing);
              if (firing.outcome.applied) {
                repairs++;
                if (firing.outcome.plan) plan = firing.outcome.plan;
                await appendFile(
                  svc.buildLog,
                  `\n### rvport: ${firing.heuristic}: ${firing.outcome.description}; running the plan again on a fresh copy of the source\n`,
                );
                // What the failed run left in the tree (objects, programs, generated files) must
                // not become part of the result: the final plan is proven from a clean source.
                await freshSource({ ...state, plan }, sandbox, svc.home);
                continue restart;
              }
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

const BARE_METAL = 'the code is bare-metal (freestanding, its own boot code) for another architecture';

/**
 * Errors that look like compile or assembler failures in a tree the scan found to be bare-metal
 * code cannot be fixed for riscv64 Linux: say so instead of letting the fixer try.
 */
function classifyInContext(
  state: PortState,
  error: ErrorRecord,
  output: string,
  planDir: string,
): ErrorRecord {
  // A file of a submodule the checkout has no content of: the source is incomplete, whatever
  // tool said so (a CMake error, a missing Makefile, a missing header).
  const submodule =
    state.source.dir && !SANDBOX_LIMIT_CATEGORIES.has(error.category) && error.category !== 'TIMEOUT'
      ? missingSubmoduleIn(state.source.dir, output, planDir)
      : null;
  if (submodule) {
    const evidence = `the submodule ${describeSubmodule(submodule)} has no content in this checkout`;
    return {
      ...error,
      category: 'SOURCE_UNAVAILABLE',
      severity: severityOf('SOURCE_UNAVAILABLE'),
      evidence,
      message: `${evidence}\n${error.message}`,
      signature: error.signature.replace(/^[A-Z_]+:/, 'SOURCE_UNAVAILABLE:'),
    };
  }
  const bareMetal = state.findings.some((f) => f.kind === 'bare-metal' && f.severity === 'high');
  if (bareMetal && ['COMPILATION', 'ARCHITECTURE', 'LINKING'].includes(error.category)) {
    return {
      ...error,
      category: 'REQUIRES_HARDWARE',
      severity: 'critical',
      evidence: BARE_METAL,
      message: `${BARE_METAL}\n${error.message}`,
    };
  }
  return error;
}
