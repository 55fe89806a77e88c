import { FunctionNode } from '../../../engine/index.ts';
import { portServices } from '../../run/PortServices.ts';
import type { BuildPlan, PortState } from '../../state/PortState.ts';
import { planFromAnalysis } from '../../steps/planFromAnalysis.ts';
import { planFromPackaging } from '../../steps/planFromPackaging.ts';
import { PortNode } from '../nodeNames.ts';
import { routeHeuristicPlanToNext } from '../routes/routeHeuristicPlanToNext.ts';
import { withAudit } from './audit.ts';

/** Below this build-system confidence the scout plans instead. */
export const MIN_DEFAULT_PLAN_CONFIDENCE = 0.5;
/** This many high architecture findings make the default plan unsafe. */
export const MAX_HIGH_FINDINGS = 3;

/** Why the default plan is not safe for this package, or null when it is. */
export function defaultPlanRefusal(state: PortState): string | null {
  const a = state.packageAnalysis;
  if (!a) return 'no analysis';
  if (a.llmGrounded && a.needsCustomPlan) return 'the analyst asked for a custom plan';
  const high = state.findings.filter((f) => f.severity === 'high').length;
  if (high >= MAX_HIGH_FINDINGS) return `${high} high architecture findings`;
  if (a.confidence < MIN_DEFAULT_PLAN_CONFIDENCE)
    return `build-system confidence ${a.confidence.toFixed(2)} is below ${MIN_DEFAULT_PLAN_CONFIDENCE}`;
  return null;
}

/**
 * Writes the default plan when it is safe (no LLM); without one, Debian's own build when its
 * packaging is at hand (planFromPackaging); otherwise the scout plans.
 */
export const heuristicPlanNode = FunctionNode<PortState>({
  targets: [PortNode.supervisor, PortNode.scout],
  then: (s) => routeHeuristicPlanToNext(s.context),
  run: (s, ctx) => {
    portServices(ctx.services).progress({ type: 'node', node: PortNode.heuristicPlan });
    const refusal = defaultPlanRefusal(s.context);
    const plan: BuildPlan | null = refusal ? null : planFromAnalysis(s.context, 'default');
    const debian = plan ? null : planFromPackaging(s.context);
    if (debian)
      return {
        context: {
          plan: debian.plan,
          patches: debian.patches,
          buildStatus: 'PENDING',
          audit: withAudit(
            s.context,
            PortNode.heuristicPlan,
            "Debian's build",
            `${refusal ?? 'no default plan for this build system'}; ${debian.description}`,
          ),
        },
      };
    const why =
      refusal ??
      (plan ? `${plan.buildSystem} default plan in ${plan.dir}` : 'no default plan for this build system');
    return {
      context: {
        plan,
        buildStatus: plan ? 'PENDING' : s.context.buildStatus,
        audit: withAudit(s.context, PortNode.heuristicPlan, plan ? 'default plan' : 'no default plan', why),
      },
    };
  },
});
