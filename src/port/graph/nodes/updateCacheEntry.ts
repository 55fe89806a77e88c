import { RecipeCache } from '../../../recipes/RecipeCache.ts';
import type { RecipeEntry } from '../../../recipes/RecipeEntry.ts';
import { recipeCacheDir } from '../../../recipes/recipeCacheDir.ts';
import type { PortServices } from '../../run/PortServices.ts';
import type { PortState } from '../../state/PortState.ts';

/**
 * The nodes after finish add what they learnt to the cache entry finish wrote (same package,
 * image and source); an entry the cache refuses costs the note, not the port.
 */
export async function updateCacheEntry(
  svc: PortServices,
  state: PortState,
  change: (entry: RecipeEntry) => RecipeEntry,
): Promise<void> {
  try {
    const cache = new RecipeCache(recipeCacheDir({ ...process.env, RVPORT_HOME: svc.home }));
    const entry = await cache.lookup(state.source.name, svc.sandbox.imageId, {
      spec: state.source.spec,
      ...(state.source.commit ? { commit: state.source.commit } : {}),
    });
    if (entry) await cache.put(change(entry));
  } catch (error) {
    svc.progress({
      type: 'note',
      message: `warning: the cache entry was not updated: ${(error as Error).message}`,
    });
  }
}
