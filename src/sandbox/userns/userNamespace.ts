import { NAMESPACE_ID_COUNT, type SubordinateIds } from './subordinateIds.ts';

/**
 * The id the host user has in a tree-owner namespace: just above the mapped range, so the host
 * user's own files stay distinguishable from the sandbox's.
 */
export const HOST_USER_INSIDE = NAMESPACE_ID_COUNT;

/**
 * unshare options for a sandbox's user namespace: inner ids 0…65535 are the subordinate range,
 * and the caller's own ids are not mapped at all. `--keep-caps` carries the namespace's
 * capabilities across the exec, so the first process can still switch to the mapped root
 * (it starts as the caller's unmapped ids, which must never reach a sandbox command).
 */
export function sandboxUserArgs(ids: SubordinateIds): string[] {
  return [
    '--user',
    '--keep-caps',
    `--map-users=${ids.uid.start},0,${NAMESPACE_ID_COUNT}`,
    `--map-groups=${ids.gid.start},0,${NAMESPACE_ID_COUNT}`,
  ];
}

/**
 * Host setpriv argv that becomes root of the namespace (the subordinate range's first id). A
 * change of ids clears the parent-death signal unshare's --kill-child set, so it is set again:
 * when unshare dies (rvport was killed), the namespace's first process and with it every
 * process inside die too.
 */
export const BECOME_NAMESPACE_ROOT: readonly string[] = [
  'setpriv',
  '--reuid=0',
  '--regid=0',
  '--clear-groups',
  '--pdeathsig',
  'KILL',
  '--',
];

/**
 * The argv that runs one of rvport's own file operations (copy, remove, chown) on a tree that
 * the sandbox's ids own: in a user namespace where the range is mapped as in a sandbox and the
 * host user is `HOST_USER_INSIDE`, with the namespace's capabilities. Works the same as root and
 * as an ordinary user; nothing from a build runs here.
 */
export function asTreeOwner(ids: SubordinateIds, argv: readonly string[]): string[] {
  return [
    'unshare',
    '--user',
    '--keep-caps',
    `--map-user=${HOST_USER_INSIDE}`,
    `--map-group=${HOST_USER_INSIDE}`,
    `--map-users=${ids.uid.start},0,${NAMESPACE_ID_COUNT}`,
    `--map-groups=${ids.gid.start},0,${NAMESPACE_ID_COUNT}`,
    '--',
    ...argv,
  ];
}
