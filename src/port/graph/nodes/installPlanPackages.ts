import type { NodeRunContext } from '../../../engine/index.ts';
import type { Sandbox } from '../../../sandbox/index.ts';
import type { PortServices } from '../../run/PortServices.ts';
import type {
  BuildPlan,
  DebianKnowledge,
  ErrorRecord,
  ExecutedCommand,
  PortState,
} from '../../state/PortState.ts';
import { installPackages } from './buildSteps.ts';
import { installBuildDepends } from './installBuildDepends.ts';

/**
 * The packages step of a build: the plan's packages (a failure fails the build), then Debian's
 * Build-Depends of a `debian:` source (a failure leaves them out; see installBuildDepends).
 */
export async function installPlanPackages(
  svc: PortServices,
  sandbox: Sandbox,
  state: Pick<PortState, 'debian'>,
  plan: BuildPlan,
  ctx: NodeRunContext,
): Promise<{
  plan: BuildPlan;
  debian?: DebianKnowledge;
  records: Omit<ExecutedCommand, 'attempt'>[];
  error?: ErrorRecord;
}> {
  const required = await installPackages(svc, sandbox, plan.packages, ctx);
  const records = required ? [required.record] : [];
  if (required?.error) return { plan, records, error: required.error };
  const debian = await installBuildDepends(svc, sandbox, state, plan, ctx);
  if (!debian) return { plan, records };
  return { plan: debian.plan, debian: debian.debian, records: [...records, ...debian.records] };
}
