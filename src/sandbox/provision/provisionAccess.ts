import { appendFile, writeFile } from 'node:fs/promises';
import { asNamespaceRoot, viewPath } from '../userns/namespaceView.ts';
import type { SubordinateIds } from '../userns/subordinateIds.ts';
import { runAsTreeOwner } from '../userns/treeOwner.ts';
import { host } from './hostCommand.ts';

/**
 * How provisioning reaches the trees it makes. As root, mmdebstrap makes trees owned by host
 * root and they are handed to the subordinate ids afterwards (adoptImages). As an ordinary user,
 * mmdebstrap's unshare mode makes them owned by the subordinate ids already, and every step that
 * works in a tree does so with those ids' rights.
 */
export interface ProvisionAccess {
  /** mmdebstrap's --mode. */
  readonly mmdebstrapMode: 'root' | 'unshare';
  /** Whose ids a freshly made tree has: undefined for host root (shifted later). */
  readonly treeOwner: { uid: number; gid: number } | undefined;
  /** Runs `argv` chrooted into `tree` (an x86_64 tree: the programs run natively). */
  chroot(tree: string, argv: readonly string[]): Promise<string>;
  writeFile(path: string, data: string): Promise<void>;
  appendFile(path: string, data: string): Promise<void>;
  /** Runs a file command (tar, rm) on trees with their owner's rights. */
  treeCommand(argv: readonly string[]): Promise<string>;
  /** A folder in a tree, owned by the tree's root. */
  mkdir(path: string): Promise<void>;
}

/** `imagesRoot`: the images folder with its links resolved (every tree provisioning touches is in it). */
export function provisionAccess(ids: SubordinateIds, imagesRoot: string, isRoot: boolean): ProvisionAccess {
  if (isRoot) {
    return {
      mmdebstrapMode: 'root',
      treeOwner: undefined,
      chroot: (tree, argv) => host(['chroot', tree, ...argv]),
      writeFile: (path, data) => writeFile(path, data),
      appendFile: (path, data) => appendFile(path, data),
      treeCommand: (argv) => host(argv),
      mkdir: (path) => host(['mkdir', '-p', '--', path]).then(() => {}),
    };
  }
  const chrootAsRoot = (tree: string, argv: readonly string[]) =>
    host(asNamespaceRoot(ids, [imagesRoot], 'exec chroot "$@"', [viewPath([imagesRoot], tree), ...argv]));
  return {
    mmdebstrapMode: 'unshare',
    treeOwner: { uid: ids.uid.start, gid: ids.gid.start },
    chroot: chrootAsRoot,
    writeFile: (path, data) =>
      runAsTreeOwner(ids, ['sh', '-c', 'cat > "$1" && chown 0:0 "$1"', 'sh', path], { input: data }).then(
        () => {},
      ),
    appendFile: (path, data) =>
      runAsTreeOwner(ids, ['sh', '-c', 'cat >> "$1"', 'sh', path], { input: data }).then(() => {}),
    treeCommand: (argv) => runAsTreeOwner(ids, argv),
    mkdir: (path) =>
      runAsTreeOwner(ids, ['sh', '-c', 'mkdir -p -- "$1" && chown 0:0 "$1"', 'sh', path]).then(() => {}),
  };
}
