import { appendFile } from 'node:fs/promises';
import type { NodeRunContext } from '../../engine/types.ts';
import type { Sandbox } from '../../sandbox/Sandbox.ts';
import type { PortServices } from '../PortServices.ts';
import type { PortState } from '../PortState.ts';
import { withAudit } from './audit.ts';
import { BUILD_PHASES, freshSource, installPackages, runLogged } from './buildSteps.ts';

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
  for (const phase of plan.phases.filter((p) => BUILD_PHASES.has(p.name))) {
    for (const command of phase.commands) {
      svc.progress({ type: 'phase', phase: phase.name, command });
      const result = await runLogged(svc, sandbox, plan, phase.name, command, ctx);
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('interrupted');
      if (result.exitCode !== 0 && !phase.optional)
        throw new Error(
          `rebuilding after the resume: \`${command}\` failed (exit ${result.exitCode}) although it worked before`,
        );
    }
  }
  return { builtIn: sandbox.id, audit: withAudit(state, node, 'rebuilt', why) };
}
