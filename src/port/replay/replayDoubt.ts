import type { PortState } from '../state/PortState.ts';

/**
 * What GNU patch (build.sh's `patch -p1`) cannot do as `git apply` (the port's) does: binary
 * hunks and symbolic links. Text hunks, new and deleted files, renames and modes it applies alike.
 */
const GIT_ONLY_PATCH = /^(GIT binary patch|Binary files |(old|new|deleted file|new file) mode 120000)/m;

/**
 * Why build.sh might not rebuild what the port built — the doubt a replay settles — or an empty
 * list when the verified build was itself a run of the recipe: the plan rvport's analysis made
 * (no LLM plan, no cached one), run once from a fresh copy of the source with no repair, no
 * command outside the plan, no dependency fetched on the host, and patches that build.sh's `patch`
 * applies as the port's `git apply` did. The replay of such a build would repeat the same commands on the same source and images.
 */
export function replayDoubt(
  state: Pick<
    PortState,
    'plan' | 'fixAttempts' | 'executed' | 'patches' | 'cachedRecipe' | 'fetchedDependencies'
  >,
): string[] {
  const doubts: string[] = [];
  const origin = state.plan?.origin;
  if (origin !== 'default' && origin !== 'fallback') doubts.push(`the plan came from ${origin ?? 'nowhere'}`);
  if (state.cachedRecipe) doubts.push('the build reran a cached recipe');
  const repairs = state.fixAttempts.filter((f) => f.outcome === 'applied');
  if (repairs.length > 0)
    doubts.push(`the build was repaired (${repairs.map((r) => `${r.source} ${r.name}`).join(', ')})`);
  const attempts = new Set(state.executed.map((e) => e.attempt));
  if (attempts.size > 1) doubts.push(`the build ran ${attempts.size} attempts`);
  const outside = state.executed.filter((e) => e.origin !== 'plan');
  if (outside.length > 0) doubts.push(`${outside.length} commands ran outside the plan`);
  if (state.fetchedDependencies)
    doubts.push(
      "dependencies were fetched on the host (build.sh's way of supplying them runs only in a replay)",
    );
  const gitOnly = state.patches.filter((p) => GIT_ONLY_PATCH.test(p.diff));
  if (gitOnly.length > 0)
    doubts.push(`patches build.sh's patch may apply differently (${gitOnly.map((p) => p.name).join(', ')})`);
  return doubts;
}
