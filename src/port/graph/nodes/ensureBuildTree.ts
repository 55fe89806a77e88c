import { appendFile } from 'node:fs/promises';
import type { NodeRunContext } from '../../../engine/index.ts';
import type { Sandbox } from '../../../sandbox/index.ts';
import type { PortServices } from '../../run/PortServices.ts';
import type { PortState } from '../../state/PortState.ts';
import { withAudit } from './audit.ts';
import { freshSource, installPackages, rerunPlanPhases } from './buildSteps.ts';

/**
 * Makes sure the sandbox holds the port's successful build before a node reads the build tree.
 * A port interrupted after its build resumes in a new instance (the old one went with the old
 * process): the final plan, which built once already, runs again there from a fresh copy of the
 * source with its patches and packages; no heuristic, no fixer, no attempt counted. A command
 * that fails now is an error of the run (the engine escalates with the message).
 */
export async function ensureBuildTree(
  svc: PortServices,
  sandbox: Sandbox,
  state: PortState,
  ctx: NodeRunContext,
  node: string,
): Promise<Partial<PortState>> {
  if (!state.builtIn || state.builtIn === sandbox.id || !state.plan) return {};
  const plan = state.plan;
  const why = `the build was in sandbox instance ${state.builtIn}, which is gone (the port was resumed); building the final plan again in ${sandbox.id}`;
  svc.progress({ type: 'note', message: why });
  await appendFile(svc.buildLog, `\n### rvport: ${why}\n`);
  await freshSource(state, sandbox, svc.home);
  const installed = await installPackages(svc, sandbox, plan.packages, ctx);
  if (installed?.error) throw new Error(`rebuilding after the resume: ${installed.error.message}`);
  const failed = await rerunPlanPhases(svc, sandbox, plan, ctx);
  if (failed)
    throw new Error(
      `rebuilding after the resume: \`${failed.command}\` failed (exit ${failed.result.exitCode}) although it worked before`,
    );
  return { builtIn: sandbox.id, audit: withAudit(state, node, 'rebuilt', why) };
}
