import { posix } from 'node:path';
import type { TuneWorkbench } from './TuneWorkbench.ts';

type Trees = Pick<TuneWorkbench, 'sandbox' | 'srcDir' | 'destDir' | 'workDir' | 'signal'>;

/**
 * Built trees kept side by side in the sandbox so the baseline and a tune can run in turn. A tree
 * is moved (not copied) into the build folders to run, since a build may have recorded its own
 * absolute paths (libtool wrappers, rpaths); a move inside one file system costs nothing.
 */
export async function stashTree(trees: Trees, name: string): Promise<void> {
  const to = posix.join(trees.workDir, name);
  await sh(
    trees,
    `mkdir -p '${to}' && rm -rf '${to}/src' '${to}/dest' && mv '${trees.srcDir}' '${to}/src' && { mv '${trees.destDir}' '${to}/dest' 2>/dev/null || mkdir -p '${to}/dest'; }`,
    `keeping the ${name} tree`,
  );
}

/** Moves a kept tree back into the build folders (whatever is there goes). */
export async function unstashTree(trees: Trees, name: string): Promise<void> {
  const from = posix.join(trees.workDir, name);
  await sh(
    trees,
    `rm -rf '${trees.srcDir}' '${trees.destDir}' && mv '${from}/src' '${trees.srcDir}' && mv '${from}/dest' '${trees.destDir}'`,
    `taking out the ${name} tree`,
  );
}

/** Runs `f` with the kept tree `name` in the build folders, and keeps it again afterwards. */
export async function withTree<T>(trees: Trees, name: string, f: () => Promise<T>): Promise<T> {
  await unstashTree(trees, name);
  try {
    return await f();
  } finally {
    await stashTree(trees, name);
  }
}

export async function dropTrees(trees: Trees, paths: readonly string[]): Promise<void> {
  await sh(trees, `rm -rf ${paths.map((p) => `'${p}'`).join(' ')}`, 'removing the tune trees');
}

async function sh(trees: Trees, script: string, what: string): Promise<void> {
  const result = await trees.sandbox.run(['/bin/sh', '-c', script], {
    cwd: '/',
    timeoutMs: 5 * 60_000,
    signal: trees.signal,
  });
  if (result.exitCode !== 0)
    throw new Error(`${what} failed: ${(result.stderr || result.stdout).trim().split('\n')[0]}`);
}
