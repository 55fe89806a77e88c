/** Symbolic links followed while resolving one path before it counts as a loop (Linux uses 40). */
export const MAX_LINK_HOPS = 40;

/**
 * Where a symbolic link at `link` (a relative path in a tree) with `target` leads, resolved the
 * way the kernel would in the finished tree: `links` holds every symbolic link of that tree, so
 * a `..` after a link to `.` or a chain of links is followed, not just compared as text.
 * `outside`: it would leave the tree's root, or is absolute; `loop`: too many links; otherwise
 * `inside` (which includes targets that do not exist).
 */
export function resolveLink(
  links: ReadonlyMap<string, string>,
  link: string,
  target: string,
): 'inside' | 'outside' | 'loop' {
  if (target.startsWith('/')) return 'outside';
  const stack = link.split('/').slice(0, -1);
  const hops = { count: 0 };
  return walk(links, stack, target.split('/'), hops);
}

function walk(
  links: ReadonlyMap<string, string>,
  stack: string[],
  parts: readonly string[],
  hops: { count: number },
): 'inside' | 'outside' | 'loop' {
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (stack.length === 0) return 'outside';
      stack.pop();
      continue;
    }
    stack.push(part);
    const next = links.get(stack.join('/'));
    if (next === undefined) continue;
    hops.count += 1;
    if (hops.count > MAX_LINK_HOPS) return 'loop';
    if (next.startsWith('/')) return 'outside';
    stack.pop();
    const result = walk(links, stack, next.split('/'), hops);
    if (result !== 'inside') return result;
  }
  return 'inside';
}
