import { RECIPE_ENTRY_VERSION, type RecipeEntry } from '../../recipes/RecipeEntry.ts';
import { version } from '../../version.ts';
import type { PortState } from '../state/PortState.ts';

/** The cache entry of a finished port: the plan that worked, its outputs and the recipe text. */
export function toRecipeEntry(state: PortState, recipe: string, imageId: string): RecipeEntry {
  const plan = state.plan;
  return {
    formatVersion: RECIPE_ENTRY_VERSION,
    package: state.source.name,
    imageId,
    source: {
      spec: state.source.spec,
      ...(state.source.url ? { url: state.source.url } : {}),
      ...(state.source.commit ? { commit: state.source.commit } : {}),
      ...(state.source.tree ? { tree: state.source.tree } : {}),
    },
    buildSystem: plan?.buildSystem ?? 'unknown',
    plan: {
      dir: plan?.dir ?? '.',
      packages: plan?.packages ?? [],
      phases: (plan?.phases ?? []).map((p) => ({
        name: p.name,
        commands: p.commands,
        ...(p.optional ? { optional: true } : {}),
      })),
      ...(plan?.env && Object.keys(plan.env).length ? { env: plan.env } : {}),
    },
    dependencies: plan?.packages ?? [],
    ...(state.fetchedDependencies?.items.length
      ? { fetchedDependencies: state.fetchedDependencies.items }
      : {}),
    patches: state.patches,
    artifacts: state.artifacts
      .filter((a) => a.role !== 'object' && a.role !== 'other')
      .map((a) => ({
        path: a.path,
        machine: a.machine ?? 'unknown',
        bits: a.bits,
        abi: a.abi,
        type: a.type,
        role: a.role,
      })),
    verification: state.verification ?? { verdict: 'not_verified', reason: 'not verified' },
    durations: state.timings,
    recipe,
    createdAt: new Date().toISOString(),
    rvportVersion: version,
    modeEvidence: modeEvidenceOf(state),
  };
}

function modeEvidenceOf(state: PortState): NonNullable<RecipeEntry['modeEvidence']> {
  const evidence = state.userlandEvidence;
  return {
    mode: state.options.mode,
    kind: state.options.modeEvidence ?? 'none',
    reason: state.options.modeReason ?? '',
    ...(evidence
      ? {
          invocations: evidence.invocations,
          machineChecked: evidence.machineChecked,
          sampled: evidence.sampled,
          layer: evidence.layer,
        }
      : {}),
  };
}
