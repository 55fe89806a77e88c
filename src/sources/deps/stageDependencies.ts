import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runProcess } from '../../process/runProcess.ts';
import { dependencyStore } from './acquireDependencies.ts';
import type { FetchedDependencies } from './FetchedDependency.ts';

/**
 * The part of the store one port needs, copied into a fresh host folder for the sandbox's
 * copy-in (the store itself is never handed to the sandbox: a build can write nothing into it,
 * and sees nothing another port fetched). Returns the staging root; its `deps` folder is what
 * goes in. The caller removes the root.
 */
export async function stageDependencies(
  fetched: FetchedDependencies,
  home: string,
): Promise<{ root: string; dir: string }> {
  const store = dependencyStore(home, fetched.kind);
  const root = await mkdtemp(join(tmpdir(), 'rvport-deps-'));
  const dir = join(root, 'deps');
  await mkdir(dir);
  for (const rel of fetched.paths) {
    if (rel.startsWith('/') || rel.split('/').includes('..')) throw new Error(`bad store path ${rel}`);
    await mkdir(dirname(join(dir, rel)), { recursive: true });
    const copy = await runProcess({
      command: ['cp', '-a', '--reflink=auto', '--', join(store, rel), join(dir, rel)],
    });
    if (copy.exitCode !== 0) throw new Error(`staging ${rel} for the sandbox failed: ${copy.stderr.trim()}`);
  }
  return { root, dir };
}
