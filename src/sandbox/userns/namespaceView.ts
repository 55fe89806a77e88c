import { relative } from 'node:path';
import type { SubordinateIds } from './subordinateIds.ts';
import { BECOME_NAMESPACE_ROOT, sandboxUserArgs } from './userNamespace.ts';

/**
 * How host folders reach a user namespace of the subordinate ids. The caller can reach them; the
 * subordinate ids may not (a home folder of mode 0700). So the first process, still with the
 * caller's (unmapped) ids, opens each folder, becomes the namespace's root, and the second script
 * binds each descriptor at /tmp/vN on a tmpfs of its own and closes them before anything else
 * runs. Nothing of the host's paths or of the caller's ids is left.
 */

/** Where the folders appear inside while a namespace is assembled. */
export const NAMESPACE_VIEW = '/tmp';

/** At most this many folders (descriptors 3…8). */
export const MAX_VIEW_ROOTS = 6;

const VIEW_FD = 3;

/** A host path under one of `roots` (folders with their links resolved) as the namespace sees it. */
export function viewPath(roots: readonly string[], hostPath: string): string {
  for (const [index, root] of roots.entries()) {
    const rel = relative(root, hostPath);
    if (rel.startsWith('..') || rel.startsWith('/')) continue;
    return rel === '' ? `${NAMESPACE_VIEW}/v${index}` : `${NAMESPACE_VIEW}/v${index}/${rel}`;
  }
  throw new Error(`${hostPath} is not inside the sandbox folders ${roots.join(', ')}`);
}

function checkCount(roots: number): void {
  if (roots < 1 || roots > MAX_VIEW_ROOTS)
    throw new Error(`between 1 and ${MAX_VIEW_ROOTS} view roots, not ${roots}`);
}

/** The descriptor of the program that enters the instance (openViewScript's `program`). */
export const ENTER_FD = 9;

/**
 * The first script: opens the folders (and, with `program`, the file that the second script
 * execs as /proc/self/fd/9) and becomes the namespace's root. Arguments: the folders, the
 * program's path if any, then the second script, then its arguments.
 */
export function openViewScript(
  roots: number,
  marks: { failed?: string; exit?: number } = {},
  program = false,
): string {
  checkCount(roots);
  const opens = Array.from({ length: roots }, (_, i) => `${VIEW_FD + i}< "$${i + 1}"`);
  if (program) opens.push(`${ENTER_FD}< "$${roots + 1}"`);
  const trap = marks.failed ? [`trap 'echo "${marks.failed}" >&2; exit ${marks.exit ?? 125}' EXIT`] : [];
  return [
    'set -e',
    ...trap,
    `exec ${opens.join(' ')}`,
    `shift ${roots + (program ? 1 : 0)}`,
    'script=$1; shift',
    ...(trap.length ? ['trap - EXIT'] : []),
    `exec ${BECOME_NAMESPACE_ROOT.join(' ')} /bin/sh -c "$script" rvport-sandbox "$@"`,
  ].join('\n');
}

/**
 * The second script's first lines: the descriptors become /tmp/vN and are closed. The views
 * whose index `writable` does not name are bound read-only.
 */
export function bindViewLines(roots: number, writable?: ReadonlySet<number>): string[] {
  checkCount(roots);
  const each = Array.from({ length: roots }, (_, i) => i);
  const readOnly = writable ? each.filter((i) => !writable.has(i)) : [];
  return [
    `mount -t tmpfs -o size=1m,mode=0755 rvport-view ${NAMESPACE_VIEW}`,
    ...each.map((i) => `mkdir ${NAMESPACE_VIEW}/v${i}`),
    ...each.map((i) => `mount --bind /proc/self/fd/${VIEW_FD + i} ${NAMESPACE_VIEW}/v${i}`),
    ...readOnly.map((i) => `mount -o remount,bind,ro,nosuid,nodev ${NAMESPACE_VIEW}/v${i}`),
    `exec ${each.map((i) => `${VIEW_FD + i}<&-`).join(' ')}`,
  ];
}

/** The indexes of the views that hold one of `paths` (the views that must stay writable). */
export function viewsHolding(roots: readonly string[], paths: readonly string[]): Set<number> {
  const held = new Set<number>();
  for (const path of paths) {
    const index = roots.findIndex((root) => {
      const rel = relative(root, path);
      return !(rel.startsWith('..') || rel.startsWith('/'));
    });
    if (index >= 0) held.add(index);
  }
  return held;
}

/**
 * The host argv that runs the shell `script` (with `args` as "$@") as root of a new user and
 * mount namespace of the subordinate ids, with each of `roots` at /tmp/vN (see viewPath).
 * For rvport's own steps on trees (probes, provisioning), never for a build.
 */
export function asNamespaceRoot(
  ids: SubordinateIds,
  roots: readonly string[],
  script: string,
  args: readonly string[] = [],
): string[] {
  const second = [...bindViewLines(roots.length), script].join('\n');
  return [
    'unshare',
    ...sandboxUserArgs(ids),
    '--mount',
    '--propagation',
    'private',
    '--',
    '/bin/sh',
    '-c',
    openViewScript(roots.length),
    'rvport-view',
    ...roots,
    second,
    ...args,
  ];
}
