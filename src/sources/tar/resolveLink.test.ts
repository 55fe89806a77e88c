import { describe, expect, it } from 'vitest';
import { MAX_LINK_HOPS, resolveLink } from './resolveLink.ts';

const none = new Map<string, string>();

describe('resolveLink', () => {
  it('keeps targets inside the tree, including dangling ones and the root itself', () => {
    expect(resolveLink(none, 'a/b', '../c')).toBe('inside');
    expect(resolveLink(none, 'a/b', 'missing/x')).toBe('inside');
    expect(resolveLink(none, 'self', '.')).toBe('inside');
  });

  it('refuses absolute targets and targets above the root', () => {
    expect(resolveLink(none, 'x', '/etc/passwd')).toBe('outside');
    expect(resolveLink(none, 'up', '..')).toBe('outside');
    expect(resolveLink(none, 'a/b', '../../x')).toBe('outside');
  });

  it('follows other links of the tree as the kernel would', () => {
    const links = new Map([
      ['d', '.'],
      ['l', 'd/..'],
      ['abs', '/tmp'],
      ['deep', 'x/y'],
    ]);
    expect(resolveLink(links, 'l', 'd/..')).toBe('outside'); // textually '.', really the parent
    expect(resolveLink(links, 'via', 'abs/x')).toBe('outside');
    expect(resolveLink(links, 'ok', 'deep/../z')).toBe('inside');
  });

  it('reports loops', () => {
    const links = new Map([
      ['a', 'b'],
      ['b', 'a'],
    ]);
    expect(resolveLink(links, 'a', 'b')).toBe('loop');
    expect(MAX_LINK_HOPS).toBe(40);
  });
});
