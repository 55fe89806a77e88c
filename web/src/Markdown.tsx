import { h, type VNode } from 'preact';
import { useMemo } from 'preact/hooks';
import { type MdNode, markdownTree } from './markdownTree.ts';

/** A report's Markdown as elements and text nodes (see markdownTree: no HTML passes through). */
export function Markdown({ text }: { text: string }) {
  const tree = useMemo(() => markdownTree(text), [text]);
  return <div class="markdown">{tree.map(toVNode)}</div>;
}

function toVNode(node: MdNode, index: number): VNode | string {
  if (typeof node === 'string') return node;
  return h(node.tag, { key: index, ...node.attrs }, node.children.map(toVNode));
}
