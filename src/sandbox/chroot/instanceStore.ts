import { randomBytes } from 'node:crypto';
import { chmod, copyFile, link, mkdir, readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeJsonAtomic } from '../../fs/index.ts';
import { isProcessAlive } from '../../process/isProcessAlive.ts';
import { assertImagesIntact } from '../checkImages.ts';
import { emulatorProgram } from '../emulator/ensureEmulator.ts';
import { SandboxError } from '../errors.ts';
import { detachMountsUnder, removeTree } from '../removeTree.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';
import { readSubordinateIds } from '../userns/subordinateIds.ts';
import { giveToSandboxRoot } from '../userns/treeOwner.ts';
import { ChrootSandbox, instanceLayout } from './ChrootSandbox.ts';
import { INSTANCE_EMULATOR, type InstanceRecord } from './InstanceRecord.ts';
import { MERGED_USR_UPPER, writeUpperEntries } from './mergedUsrUpper.ts';

export type NewInstance = Omit<InstanceRecord, 'id' | 'createdAt' | 'snapshots' | 'ownerPid'> & {
  ownerPid?: number;
};

export async function createInstance(paths: SandboxPaths, spec: NewInstance): Promise<ChrootSandbox> {
  // no instance starts over an image that changed since it was made
  await assertImagesIntact(paths, [...spec.lowerKeys, ...(spec.toolsKey ? [spec.toolsKey] : [])]);
  const id = `${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)}-${randomBytes(4).toString('hex')}`;
  const layout = instanceLayout(paths, id);
  const ids = readSubordinateIds();
  const dirs = [layout.upper, layout.work, layout.merged, layout.workspace, layout.snapshots];
  for (const dir of [...dirs, layout.transferIn, layout.transferOut]) await mkdir(dir, { recursive: true });
  // the sandbox's ids must reach the instance's folders (a umask of 077 would shut them out)
  for (const dir of [paths.root, paths.instances, layout.dir, layout.merged, layout.transferIn])
    await chmod(dir, 0o755);
  // the layered modes: merged-/usr as Debian requires, with the x86_64 loader still found
  // (why here and not in the layers: mergedUsrUpper.ts); handed to the sandbox's root below
  if (spec.toolsKey) await writeUpperEntries(layout.upper, MERGED_USR_UPPER);
  await giveToSandboxRoot(ids, [layout.upper, layout.work, layout.workspace, layout.transferOut]);
  if (spec.emulatorKey) await placeEmulator(paths, spec.emulatorKey, layout.dir);
  const record: InstanceRecord = {
    ...spec,
    id,
    ownerPid: spec.ownerPid ?? process.pid,
    createdAt: new Date().toISOString(),
    snapshots: [],
  };
  await writeJsonAtomic(layout.record, record);
  return new ChrootSandbox(paths, record);
}

export async function readInstanceRecord(
  paths: SandboxPaths,
  id: string,
): Promise<InstanceRecord | undefined> {
  try {
    return JSON.parse(await readFile(instanceLayout(paths, id).record, 'utf8')) as InstanceRecord;
  } catch {
    return undefined;
  }
}

export async function openInstance(paths: SandboxPaths, id: string): Promise<ChrootSandbox> {
  const record = await readInstanceRecord(paths, id);
  if (!record) throw new SandboxError('instance-missing', `no sandbox instance ${id}`);
  // the opener owns it now, so a cleanup elsewhere does not take it for stale
  const claimed = { ...record, ownerPid: process.pid };
  await writeJsonAtomic(instanceLayout(paths, id).record, claimed);
  return new ChrootSandbox(paths, claimed);
}

export async function listInstances(paths: SandboxPaths): Promise<InstanceRecord[]> {
  let names: string[];
  try {
    names = await readdir(paths.instances);
  } catch {
    return [];
  }
  const records: InstanceRecord[] = [];
  for (const name of names.sort()) {
    const record = await readInstanceRecord(paths, name);
    if (record) records.push(record);
  }
  return records;
}

/** Host processes whose command line names `needle` (our unshare commands name their instance). */
export async function processesMentioning(needle: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(needle)) pids.push(pid);
  }
  return pids;
}

export interface CleanupReport {
  removedInstances: string[];
  killedProcesses: number[];
  unmounted: string[];
}

/**
 * Run at every start: what a killed rvport left behind. Instances whose owner is gone are removed
 * (unless kept), their leftover processes killed and any mount left in their folder detached
 * (normally there is none: instance mounts live in namespaces that die with their command).
 */
export async function cleanupStale(paths: SandboxPaths): Promise<CleanupReport> {
  const report: CleanupReport = { removedInstances: [], killedProcesses: [], unmounted: [] };
  for (const record of await listInstances(paths)) {
    if (record.ownerPid === process.pid || isProcessAlive(record.ownerPid)) continue;
    const layout = instanceLayout(paths, record.id);
    for (const pid of await processesMentioning(layout.merged)) {
      try {
        process.kill(pid, 'SIGKILL');
        report.killedProcesses.push(pid);
      } catch {
        // gone meanwhile
      }
    }
    // Only an owner-less instance's own folder: a live setup may have mounts elsewhere in the tree.
    report.unmounted.push(...(await detachMountsUnder(layout.dir)));
    if (!record.keep) {
      await removeTree(layout.dir);
      report.removedInstances.push(record.id);
    }
  }
  return report;
}

/**
 * The images' emulator at INSTANCE_EMULATOR: a hard link to it (a copy across file systems), owned
 * by the host user as the image is, so no id of the sandbox can change it; nothing inside reaches
 * the instance's folder but its upper layer, workspace and transfer folders.
 */
async function placeEmulator(paths: SandboxPaths, key: string, dir: string): Promise<void> {
  const target = join(dir, INSTANCE_EMULATOR);
  await mkdir(dirname(target), { recursive: true, mode: 0o755 });
  await chmod(dirname(target), 0o755);
  const program = emulatorProgram(paths, key);
  await link(program, target).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EXDEV') throw error;
    await copyFile(program, target);
    await chmod(target, 0o755);
  });
}
