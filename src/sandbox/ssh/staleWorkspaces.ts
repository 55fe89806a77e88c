import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../../fs/index.ts';
import { isProcessAlive } from '../../process/isProcessAlive.ts';
import { isRemoteRoot } from './remoteWorkspace.ts';
import { SshSandbox, type SshSandboxInit } from './SshSandbox.ts';

/** In an instance's host folder: which rvport process opened the remote workspace, and where. */
const OWNER_FILE = 'owner.json';

interface WorkspaceOwner {
  ownerPid: number;
  /** The target's URL (`ssh://user@host:port`). */
  target: string;
  root: string;
}

/** Records that this process opened the workspace `root` on `target` (instance folder `localDir`). */
export function recordWorkspaceOwner(localDir: string, target: string, root: string): Promise<void> {
  const owner: WorkspaceOwner = { ownerPid: process.pid, target, root };
  return writeJsonAtomic(join(localDir, OWNER_FILE), owner);
}

/**
 * Before a new workspace is opened on a target: the workspaces there that a killed rvport of
 * this machine left (their owner process is gone) are removed, remote folder and host folder,
 * as destroy removes them. Only workspaces this machine opened, on the same target, whose
 * recorded folder has the workspace's own form; one that cannot be removed now is tried again
 * next time. Returns the ids removed.
 */
export async function removeStaleWorkspaces(
  instancesDir: string,
  connection: Pick<SshSandboxInit, 'target' | 'files' | 'debCache'>,
): Promise<string[]> {
  let ids: string[];
  try {
    ids = await readdir(instancesDir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const id of ids) {
    const localDir = join(instancesDir, id);
    let owner: WorkspaceOwner;
    try {
      owner = JSON.parse(await readFile(join(localDir, OWNER_FILE), 'utf8')) as WorkspaceOwner;
    } catch {
      continue; // opening, or not a workspace of this form
    }
    if (owner.target !== connection.target.url || !isRemoteRoot(String(owner.root), id)) continue;
    if (!Number.isInteger(owner.ownerPid) || isProcessAlive(owner.ownerPid)) continue;
    const stale = new SshSandbox({ id, root: owner.root, localDir, ...connection });
    try {
      await stale.destroy();
      removed.push(id);
    } catch {
      // unreachable now: the next start tries again
    }
  }
  return removed;
}
