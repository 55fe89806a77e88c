import { FunctionNode } from '../../../engine/index.ts';
import type { RecipeEntry } from '../../../recipes/RecipeEntry.ts';
import { portServices } from '../../run/PortServices.ts';
import type { BuildPlan, PlanPhase, PortState } from '../../state/PortState.ts';
import { PortNode } from '../nodeNames.ts';
import { routeCachedRecipeToNext } from '../routes/routeCachedRecipeToNext.ts';
import { withAudit } from './audit.ts';

/**
 * With --optimize, a verified cache entry becomes the plan, with its patches and environment (no
 * analyst, no scout, no LLM call). An entry
 * without commands is dropped and the run plans as usual.
 */
export const cachedRecipeNode = FunctionNode<PortState>({
  targets: [PortNode.supervisor, PortNode.analyst],
  then: (s) => routeCachedRecipeToNext(s.context),
  run: (s, ctx) => {
    portServices(ctx.services).progress({ type: 'node', node: PortNode.cachedRecipe });
    const state = s.context;
    const entry = state.cachedRecipe as RecipeEntry | null;
    const phases = (entry?.plan.phases ?? []).filter((p) => p.commands.length > 0) as PlanPhase[];
    if (!entry || phases.length === 0) {
      return {
        context: {
          cachedRecipe: null,
          audit: withAudit(state, PortNode.cachedRecipe, 'unusable', 'no commands'),
        },
      };
    }
    const plan: BuildPlan = {
      buildSystem: entry.buildSystem,
      dir: entry.plan.dir,
      phases,
      packages: entry.plan.packages,
      ...(entry.plan.env ? { env: entry.plan.env } : {}),
      expectedArtifacts: entry.artifacts.map((a) => a.path),
      origin: 'cache',
    };
    const note =
      entry.source.commit && entry.source.commit !== state.source.commit
        ? `the entry verified commit ${entry.source.commit}`
        : undefined;
    return {
      context: {
        plan,
        // The verified patches go on the fresh source of every build, as in the original port.
        patches: entry.patches,
        buildStatus: 'PENDING',
        packageAnalysis: {
          buildSystem: entry.buildSystem,
          confidence: 1,
          dir: entry.plan.dir,
          needsCustomPlan: false,
          llmGrounded: false,
          dependencies: entry.dependencies,
          expectedArtifacts: plan.expectedArtifacts,
          notes: note ? [note] : [],
        },
        audit: withAudit(state, PortNode.cachedRecipe, 'plan from cache', note),
      },
    };
  },
});
