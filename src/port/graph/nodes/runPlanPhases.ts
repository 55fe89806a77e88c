import type { NodeRunContext } from '../../../engine/index.ts';
import type { FailedStep } from '../../../heuristics/index.ts';
import type { Sandbox } from '../../../sandbox/index.ts';
import type { PortServices } from '../../run/PortServices.ts';
import type { BuildPlan, ExecutedCommand, PlanPhase } from '../../state/PortState.ts';
import { type ErrorCategory, LIMIT_CATEGORY } from '../../state/vocabulary.ts';
import { BUILD_PHASES, runLogged } from './buildSteps.ts';

/** Bytes of a failed command's output the heuristics and the error record see. */
const FAILURE_OUTPUT_BYTES = 64 * 1024;

/** The first command of a plan's run that failed, where it stands in the plan, and why. */
export interface PhaseFailure {
  failure: FailedStep & { category?: ErrorCategory; evidence?: string };
  /** Its index in its phase's commands. */
  index: number;
  /** It hit a sandbox limit (memory, processes, disk) or the time limit: no repair can help. */
  limited: boolean;
}

/**
 * Runs the plan's build phases once, in order, in the sandbox, and appends every command it ran
 * to `executed`. A failed optional phase is skipped with a note; the first other failed command
 * ends the run.
 */
export async function runPlanPhases(
  svc: PortServices,
  sandbox: Sandbox,
  plan: BuildPlan,
  ctx: NodeRunContext,
  record: { attempt: number; executed: ExecutedCommand[]; notes: string[] },
): Promise<PhaseFailure | undefined> {
  const runnable: PlanPhase[] = plan.phases.filter((p) => BUILD_PHASES.has(p.name));
  phases: for (const phase of runnable) {
    for (const [index, command] of phase.commands.entries()) {
      svc.progress({ type: 'phase', phase: phase.name, command });
      const result = await runLogged(svc, sandbox, plan, phase.name, command, ctx);
      record.executed.push({
        phase: phase.name,
        command,
        exitCode: result.exitCode,
        durationMs: Math.round(result.durationMs),
        attempt: record.attempt,
        origin: 'plan',
      });
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('interrupted');
      if (result.exitCode === 0) continue;
      if (phase.optional) {
        record.notes.push(`the optional ${phase.name} step failed (exit ${result.exitCode}): ${command}`);
        continue phases;
      }
      return {
        failure: {
          phase: phase.name,
          command,
          output: `${result.stdout}\n${result.stderr}`.slice(-FAILURE_OUTPUT_BYTES),
          exitCode: result.exitCode,
          timedOut: result.timedOut,
          ...(result.limit
            ? { category: LIMIT_CATEGORY[result.limit.kind], evidence: result.limit.detail }
            : {}),
        },
        index,
        limited: result.timedOut || !!result.limit,
      };
    }
  }
  return undefined;
}
