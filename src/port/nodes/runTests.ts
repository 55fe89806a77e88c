import type { NodeRunContext } from '../../engine/types.ts';
import type { Sandbox } from '../../sandbox/Sandbox.ts';
import { describeSubmodule, missingSubmoduleIn } from '../missingSubmodule.ts';
import type { PortServices } from '../PortServices.ts';
import type { PortState } from '../PortState.ts';
import { parseTestSummary } from '../parseTestSummary.ts';
import { planCommandContext } from '../planFromAnalysis.ts';

/**
 * Runs the package's tests once in the sandbox, with the plan's folder and environment: finish
 * reports the result, and performance mode runs them again for every tune it gates.
 */
export async function runTests(
  svc: PortServices,
  sandbox: Sandbox,
  state: PortState,
  ctx: NodeRunContext,
): Promise<NonNullable<PortState['tests']>> {
  const commands = state.plan?.phases.find((p) => p.name === 'test')?.commands ?? [];
  if (svc.runTests === false)
    return { ran: false, passed: 0, failed: 0, exitCode: null, summary: 'tests not run (a timing-only run)' };
  if (commands.length === 0)
    return { ran: false, passed: 0, failed: 0, exitCode: null, summary: 'the build system has no test step' };
  let output = '';
  let exitCode = 0;
  for (const command of commands) {
    svc.progress({ type: 'phase', phase: 'test', command });
    const result = await sandbox.run(command, {
      ...planCommandContext(state.plan),
      timeoutMs: svc.testTimeoutMs,
      logFile: svc.buildLog,
      signal: ctx.signal,
    });
    output += `${result.stdout}\n${result.stderr}\n`;
    if (result.timedOut) output += `(the tests ran past the time limit of ${svc.testTimeoutMs / 1000} s)\n`;
    if (result.exitCode !== 0) {
      exitCode = result.exitCode;
      break;
    }
  }
  const counts = parseTestSummary(output, exitCode);
  const tail = output.trim().split('\n').slice(-15).join('\n');
  // tests that cannot build because a submodule has no content say so before their output
  const submodule =
    exitCode !== 0 && state.source.dir ? missingSubmoduleIn(state.source.dir, output, state.plan?.dir) : null;
  const summary = submodule
    ? `the tests need the submodule ${describeSubmodule(submodule)}, which has no content in this checkout\n${tail}`
    : tail;
  return { ran: true, passed: counts.passed, failed: counts.failed, exitCode, summary };
}
