import { rm } from 'node:fs/promises';
import type { Sandbox } from '../../sandbox/index.ts';
import type { FetchedDependencies } from '../../sources/index.ts';
import { stageDependencies } from '../../sources/index.ts';
import { SANDBOX_DEPS } from './fetchedDependencyPlan.ts';

/**
 * A port's checked dependencies from rvport's store into the instance (`/build/deps`), a
 * copy: the store itself is never in the sandbox's reach, and the build's writes to its copy
 * die with the instance. Throws when the store lacks one of them.
 */
export async function copyDependenciesIn(
  fetched: FetchedDependencies,
  home: string,
  sandbox: Sandbox,
): Promise<void> {
  const staged = await stageDependencies(fetched, home);
  try {
    await sandbox.copyIn(staged.dir, SANDBOX_DEPS);
  } finally {
    await rm(staged.root, { recursive: true, force: true });
  }
}
