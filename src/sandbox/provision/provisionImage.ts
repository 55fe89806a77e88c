import { mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../../fs/index.ts';
import { isProcessAlive } from '../../process/isProcessAlive.ts';
import { runProcess } from '../../process/runProcess.ts';
import { IMAGE_RECORD, IMAGE_TREE, type ImageRecord, imageTarball, readImageRecord } from '../imageStore.ts';
import { removeTree } from '../removeTree.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';
import { host } from './hostCommand.ts';
import type { ProvisionAccess } from './provisionAccess.ts';

const TEMP_PREFIX = '.tmp-';

export interface ProvisionStep {
  key: string;
  kind: ImageRecord['kind'];
  suite: string;
  architecture: string;
  /** Builds the tree in `tree` (inside a temporary folder `temp`); returns record fields to add. */
  build(tree: string, temp: string): Promise<Partial<ImageRecord>>;
  /** Also keep a compressed tarball of the tree (the portable form of the image). */
  tarball: boolean;
}

/**
 * Builds an image into a temporary folder and renames it into place only when complete, record
 * included; an interrupted provisioning leaves a `.tmp-` folder that is never taken for an image
 * and is removed by the next setup.
 */
export async function provisionImage(
  paths: SandboxPaths,
  step: ProvisionStep,
  progress: (message: string) => void,
  access: Pick<ProvisionAccess, 'treeCommand' | 'treeOwner'> = HOST_ACCESS,
): Promise<ImageRecord> {
  const existing = await readImageRecord(paths, step.key);
  if (existing) return existing;
  const restored = await restoreFromTarball(paths, step, progress, access);
  if (restored) return restored;
  const started = performance.now();
  const temp = join(paths.images, `${TEMP_PREFIX}${step.key}-${process.pid}`);
  await removeTree(temp);
  await mkdir(temp, { recursive: true });
  try {
    const tree = join(temp, IMAGE_TREE);
    const extra = await step.build(tree, temp);
    const record: ImageRecord = {
      key: step.key,
      kind: step.kind,
      suite: step.suite,
      architecture: step.architecture,
      createdAt: new Date().toISOString(),
      provisionSeconds: 0,
      treeBytes: await diskUsage(tree),
      ...extra,
    };
    if (step.tarball) {
      progress(`${step.key}: writing ${record.kind}.tar.zst`);
      const tarball = imageTarball(temp, record.kind);
      // a tarball holds the ids as they are inside (0 is root), whoever made the tree
      await access.treeCommand([
        'tar',
        '--numeric-owner',
        '--xattrs',
        '--xattrs-include=*',
        '-I',
        'zstd -T0 -3',
        '-C',
        tree,
        '-cf',
        tarball,
        '.',
      ]);
      record.tarballBytes = await diskUsage(tarball);
    }
    record.provisionSeconds = Math.round((performance.now() - started) / 100) / 10;
    await writeJsonAtomic(join(temp, IMAGE_RECORD), record);
    try {
      await rename(temp, paths.image(step.key));
    } catch (error) {
      // another setup finished the same image first: keep theirs
      const theirs = await readImageRecord(paths, step.key);
      if (!theirs) throw error;
      await removeTree(temp);
      return theirs;
    }
    progress(`${step.key}: ready in ${record.provisionSeconds} s (${formatBytes(record.treeBytes)})`);
    return record;
  } catch (error) {
    await removeTree(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * An image folder whose record and tarball are there but whose tree is not (removed to save space,
 * or only the tarballs were copied from another machine): unpack the tree, atomically again.
 */
async function restoreFromTarball(
  paths: SandboxPaths,
  step: ProvisionStep,
  progress: (message: string) => void,
  access: Pick<ProvisionAccess, 'treeCommand' | 'treeOwner'>,
): Promise<ImageRecord | undefined> {
  const dir = paths.image(step.key);
  let record: ImageRecord;
  try {
    record = JSON.parse(await readFile(join(dir, IMAGE_RECORD), 'utf8')) as ImageRecord;
    await stat(imageTarball(dir, record.kind));
  } catch {
    return undefined;
  }
  progress(`${step.key}: unpacking ${record.kind}.tar.zst`);
  const temp = join(dir, `${TEMP_PREFIX}${IMAGE_TREE}-${process.pid}`);
  await removeTree(temp);
  await mkdir(temp);
  await access.treeCommand([
    'tar',
    '--numeric-owner',
    '--xattrs',
    '--xattrs-include=*',
    '-I',
    'zstd -T0',
    '-C',
    temp,
    '-xf',
    imageTarball(dir, record.kind),
  ]);
  await rename(temp, join(dir, IMAGE_TREE));
  // unpacked as host root the tree is root's again (handed to the subordinate ids next);
  // unpacked with the subordinate ids' rights it is theirs already
  const { owner: _previous, ...rest } = record;
  const restored: ImageRecord = access.treeOwner ? { ...rest, owner: access.treeOwner } : rest;
  await writeJsonAtomic(join(dir, IMAGE_RECORD), restored);
  return restored;
}

/** As host root: trees are made, packed and unpacked with root's rights. */
const HOST_ACCESS: Pick<ProvisionAccess, 'treeCommand' | 'treeOwner'> = {
  treeCommand: (argv) => host(argv),
  treeOwner: undefined,
};

/** Temporary folders of setups whose process is gone. */
export async function removeAbandonedTemps(paths: SandboxPaths): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(paths.images);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const pid = Number(/-(\d+)$/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && isProcessAlive(pid)) continue;
    await removeTree(join(paths.images, name));
    removed.push(name);
  }
  return removed;
}

export async function diskUsage(path: string): Promise<number> {
  const result = await runProcess({ command: ['du', '-sb', '--', path], timeoutMs: 10 * 60_000 });
  return Number(result.stdout.split('\t')[0]) || 0;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MiB`;
  return `${Math.round(bytes / 1024)} KiB`;
}
