import { parseAptSelections } from './aptSelections.ts';
import { DebDownloadError, downloadDebs } from './downloadDebs.ts';
import { hostPackageIndex } from './hostPackageIndex.ts';
import { planHostDownloads } from './planHostDownloads.ts';

export interface HostResolvedDebsRequest {
  /** `apt-get install --print-uris` output from the sandbox: which versions apt picked. */
  aptOutput: string;
  /** The packages the plan asked for. */
  requested: readonly string[];
  /** Image trees whose apt lists are the host's index, top layer first. */
  trees: readonly string[];
  /** The archive to fetch from (the one the lists came from). */
  mirror: string | undefined;
  cacheDir: string;
  signal?: AbortSignal;
}

/**
 * The packages of an install, fetched into `cacheDir` as the host decides (planHostDownloads):
 * the sandbox's answer only says which versions apt picked. Returns the cached files, in order.
 */
export async function hostResolvedDebs(request: HostResolvedDebsRequest): Promise<string[]> {
  const selections = parseAptSelections(request.aptOutput);
  if (selections.length === 0) return [];
  if (!request.mirror)
    throw new DebDownloadError('refused', 'no Debian mirror is known to fetch packages from');
  const index = await hostPackageIndex(request.trees);
  if (index.byKey.size === 0)
    throw new DebDownloadError(
      'refused',
      "the image keeps no package lists the host could check apt's answer against",
    );
  const downloads = planHostDownloads({
    selections,
    requested: request.requested,
    index,
    mirror: request.mirror,
  });
  return downloadDebs(downloads, request.cacheDir, request.signal ? { signal: request.signal } : {});
}
