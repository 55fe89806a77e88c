import { realpathSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { runProcess } from '../../process/runProcess.ts';
import { enterProgram } from '../chroot/enterProgram.ts';
import { instanceCommand } from '../chroot/instanceMounts.ts';
import { SandboxError } from '../errors.ts';
import { imageTree } from '../imageStore.ts';
import { removeTree } from '../removeTree.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';
import { readSubordinateIds } from '../userns/subordinateIds.ts';
import { giveToSandboxRoot } from '../userns/treeOwner.ts';

/**
 * Runs a layer script in the emulated rootfs with the tools tree at /native and `tree` as the
 * overlay's upper layer; returns the script's output.
 */
export async function buildLayer(
  paths: SandboxPaths,
  rootfsKey: string,
  toolsKey: string,
  tree: string,
  temp: string,
  script: string,
  signal?: AbortSignal,
): Promise<string> {
  const dirs = { work: join(temp, 'work'), merged: join(temp, 'merged'), workspace: join(temp, 'build') };
  for (const dir of Object.values(dirs)) await mkdir(dir, { recursive: true });
  const ids = readSubordinateIds();
  await giveToSandboxRoot(ids, [tree, dirs.work, dirs.workspace]);
  const rootfsTree = realpathSync(imageTree(paths, rootfsKey));
  const toolsTree = realpathSync(imageTree(paths, toolsKey));
  const tempDir = realpathSync(temp);
  const command = instanceCommand(
    {
      enterProgram: enterProgram(paths.bin),
      // the layer's own folders live in temp; the two trees may be links to another home's
      viewRoots: [rootfsTree, toolsTree, tempDir],
      ids,
      lowerDirs: [rootfsTree],
      upperDir: join(tempDir, relative(temp, tree)),
      workDir: join(tempDir, relative(temp, dirs.work)),
      mergedDir: join(tempDir, relative(temp, dirs.merged)),
      workspace: join(tempDir, relative(temp, dirs.workspace)),
      nativeTree: toolsTree,
      network: false,
    },
    '/',
    ['/bin/sh', '-c', script],
    { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root', LANG: 'C.UTF-8' },
  );
  const result = await runProcess({
    command,
    clearEnv: true,
    env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' },
    timeoutMs: 20 * 60_000,
    signal,
  });
  if (result.exitCode !== 0) {
    throw new SandboxError(
      'provision-failed',
      `building the layer ${tree} failed:\n${result.stderr.slice(-3000)}`,
    );
  }
  for (const dir of Object.values(dirs)) await removeTree(dir);
  return result.stdout;
}

/** Checks in the tree itself that the swap happened, not only that the script exited 0. */
export async function expectDiversion(tree: string, path: string, layer: string): Promise<void> {
  const diversions = await readFile(join(tree, 'var/lib/dpkg/diversions'), 'utf8').catch(() => '');
  if (!diversions.includes(`${path}.riscv64`)) {
    throw new SandboxError('provision-failed', `the ${layer} layer has no diversion for ${path}`);
  }
}
