import { describe, expect, it } from 'vitest';
import { isSafeHref, type MdNode, markdownTree } from './markdownTree.ts';

const tags = (nodes: MdNode[]): string[] =>
  nodes.flatMap((n) => (typeof n === 'string' ? [] : [n.tag, ...tags(n.children)]));
const text = (nodes: MdNode[]): string =>
  nodes.map((n) => (typeof n === 'string' ? n : text(n.children))).join('');

describe('markdownTree', () => {
  it('turns headings, tables, lists and code into allowed tags', () => {
    const tree = markdownTree(
      '# Report\n\n| a | b |\n|---|---|\n| 1 | `x` |\n\n- one\n- two\n\n```\ncode\n```\n',
    );
    expect(tags(tree)).toEqual(
      expect.arrayContaining(['h1', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'code', 'ul', 'li', 'pre']),
    );
    expect(text(tree)).toContain('Report');
  });

  it('keeps raw HTML as text: no script, img or any other tag comes out of it', () => {
    const hostile =
      '<script>alert(1)</script>\n\nerror: <img src=x onerror=alert(2)> in `<b>`\n\n<div onclick="x()">d</div>';
    const tree = markdownTree(hostile);
    expect(tags(tree).filter((t) => !['p', 'code'].includes(t))).toEqual([]);
    expect(text(tree)).toContain('<script>alert(1)</script>');
    expect(text(tree)).toContain('<img src=x onerror=alert(2)>');
  });

  it('keeps links to web pages and turns every other link into plain text', () => {
    const tree = markdownTree(
      '[ok](https://example.org/a) [bad](javascript:alert(1)) [data](data:text/html,x) [rel](../x)',
    );
    const hrefs = (nodes: MdNode[]): string[] =>
      nodes.flatMap((n) =>
        typeof n === 'string' ? [] : [...(n.attrs.href ? [n.attrs.href] : []), ...hrefs(n.children)],
      );
    expect(hrefs(tree)).toEqual(['https://example.org/a']);
    expect(text(tree)).toContain('bad');
  });

  it('never loads an image: its description stands in', () => {
    const tree = markdownTree('![a tracking pixel](https://evil.example/p.png)');
    expect(tags(tree)).not.toContain('img');
    expect(text(tree)).toContain('a tracking pixel');
  });

  it('accepts http(s) addresses only', () => {
    expect(isSafeHref('https://a.b/c')).toBe(true);
    expect(isSafeHref('JavaScript:alert(1)')).toBe(false);
    expect(isSafeHref('//evil.example')).toBe(false);
  });
});
