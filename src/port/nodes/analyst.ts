import { FunctionNode } from '../../engine/nodes/FunctionNode.ts';
import { PortNode } from '../nodeNames.ts';
import { portServices } from '../PortServices.ts';
import type { PackageAnalysis, PortState } from '../PortState.ts';
import { routeAnalystToNext } from '../routes/routeAnalystToNext.ts';
import { withAudit } from './audit.ts';
import { scriptedOf } from './scriptedAnalysis.ts';

/**
 * The package analysis. Without an LLM (this implementation) it comes from the scripted
 * analysis; the LLM analyst (planner role) plugs in here later and falls back to this.
 */
export const analystNode = FunctionNode<PortState>({
  targets: [PortNode.escalate, PortNode.heuristicPlan],
  then: (s) => routeAnalystToNext(s.context),
  run: (s, ctx) => {
    portServices(ctx.services).progress({ type: 'node', node: PortNode.analyst });
    const analysis = deterministicAnalysis(s.context);
    if (!analysis)
      return { context: { audit: withAudit(s.context, PortNode.analyst, 'no scripted analysis') } };
    return {
      context: {
        packageAnalysis: analysis,
        audit: withAudit(
          s.context,
          PortNode.analyst,
          'analysis',
          `${analysis.buildSystem} (${analysis.confidence.toFixed(2)}), scripted`,
        ),
      },
    };
  },
});

export function deterministicAnalysis(state: PortState): PackageAnalysis | null {
  const scripted = scriptedOf(state);
  if (!scripted) return null;
  const packages = scripted.dependencies
    .filter((d) => d.required && d.debianPackages.length > 0)
    .map((d) => d.debianPackages[0] as string);
  const unresolved = scripted.dependencies.filter((d) => d.required && d.debianPackages.length === 0);
  return {
    buildSystem: scripted.buildSystem.type,
    confidence: scripted.buildSystem.confidence,
    dir: scripted.buildSystem.dir,
    needsCustomPlan: false,
    llmGrounded: false,
    dependencies: [...new Set(packages)].sort(),
    expectedArtifacts: [],
    notes: unresolved.length
      ? [`unresolved dependencies: ${unresolved.map((d) => `${d.kind} ${d.name}`).join(', ')}`]
      : [],
  };
}
