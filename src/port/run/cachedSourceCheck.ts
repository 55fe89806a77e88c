import { join } from 'node:path';
import type { RecipeEntry } from '../../recipes/RecipeEntry.ts';
import type { FetchRules } from '../../sources/index.ts';
import { acquireSource, headTree, remoteHeadCommit, type SourceSpec } from '../../sources/index.ts';

/** Whether a recipe-cache entry answers for the source as a port would build it now. */
export type CachedSourceCheck =
  | { hit: true; about: string }
  /** `refetch`: the remote moved on, so the port clones it again instead of reusing its tree. */
  | { hit: false; why: string; refetch: boolean };

export interface CachedSourceContext {
  home: string;
  fetch: FetchRules;
  suite: string;
  mirror?: string;
  signal?: AbortSignal;
  log: (line: string) => void;
}

const short = (hash: string) => hash.slice(0, 12);

/**
 * A cache entry is an answer only for the source it was built from. A git URL is asked for the
 * commit its HEAD is at now (the commit fixes the tree); a local folder or tarball is acquired
 * as the port would (afresh: it is on this machine) and its git tree id compared with the
 * entry's. An entry that records neither is not trusted. A Debian source name and a tarball URL
 * are still answered by the SOURCE string: their check would download the source first.
 */
export async function checkCachedSource(
  entry: RecipeEntry,
  spec: SourceSpec,
  ctx: CachedSourceContext,
): Promise<CachedSourceCheck> {
  if (spec.kind === 'git') return checkRemoteCommit(entry, spec.url, ctx);
  if (spec.kind === 'debian' || spec.kind === 'tarball-url')
    return { hit: true, about: `SOURCE ${spec.raw}` };
  if (!entry.source.tree) {
    return { hit: false, why: 'it records no source tree (an entry of an older rvport)', refetch: false };
  }
  const tree = await localTree(spec, ctx).catch((error: Error) => error);
  if (tree instanceof Error)
    return { hit: false, why: `the source could not be read (${tree.message})`, refetch: false };
  return tree === entry.source.tree
    ? { hit: true, about: `source tree ${short(tree)}` }
    : {
        hit: false,
        why: `it was built from the source tree ${short(entry.source.tree)}, and the source is now ${short(tree)}`,
        refetch: false,
      };
}

/** The git tree id of a local SOURCE as the port would take it. */
async function localTree(spec: SourceSpec, ctx: CachedSourceContext): Promise<string> {
  const acquired = await acquireSource(spec, {
    workDir: join(ctx.home, 'sources'),
    fetch: ctx.fetch,
    suite: ctx.suite,
    ...(ctx.mirror ? { mirror: ctx.mirror } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    log: ctx.log,
  });
  return headTree(acquired.gitDir, ctx.signal ? { signal: ctx.signal } : {});
}

async function checkRemoteCommit(
  entry: RecipeEntry,
  url: string,
  ctx: CachedSourceContext,
): Promise<CachedSourceCheck> {
  const recorded = entry.source.commit;
  if (!recorded) return { hit: false, why: 'it records no commit', refetch: true };
  let now: string;
  try {
    now = await remoteHeadCommit(url, { fetch: ctx.fetch, ...(ctx.signal ? { signal: ctx.signal } : {}) });
  } catch (error) {
    return {
      hit: false,
      why: `${url} could not be asked for its commit (${(error as Error).message})`,
      refetch: false,
    };
  }
  return now === recorded
    ? { hit: true, about: `commit ${short(now)}` }
    : {
        hit: false,
        why: `it was built from commit ${short(recorded)}, and ${url} is now at ${short(now)}`,
        refetch: true,
      };
}
