import MarkdownIt from 'markdown-it';

// Reports are written by rvport, but they quote what a hostile build printed: a Markdown renderer
// that emits HTML would hand that text to the browser as markup. So the Markdown is parsed into
// tokens (raw HTML off: `<script>` stays text) and turned into a tree of allowed tags and plain
// strings, which the page builds as elements and text nodes. Nothing is ever set as innerHTML.

export type MdNode = string | { tag: string; attrs: Record<string, string>; children: MdNode[] };

/** Tags a report's Markdown may become; anything else becomes a span. */
const ALLOWED_TAGS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'code',
  'hr',
  'br',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'strong',
  'em',
  's',
  'a',
  'span',
]);

const parser = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** Links lead to web pages alone: no `javascript:`, no `data:`, no link into the dashboard. */
export function isSafeHref(href: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(href);
}

interface Token {
  type: string;
  tag: string;
  nesting: number;
  content: string;
  children: Token[] | null;
  attrGet(name: string): string | null;
}

export function markdownTree(markdown: string): MdNode[] {
  return build(parser.parse(markdown, {}) as unknown as Token[]);
}

function build(tokens: readonly Token[]): MdNode[] {
  const root: MdNode[] = [];
  const stack: { children: MdNode[] }[] = [{ children: root }];
  const here = () => (stack.at(-1) as { children: MdNode[] }).children;
  for (const t of tokens) {
    if (t.nesting === 1) {
      const node = element(t);
      here().push(node);
      stack.push(node);
      continue;
    }
    if (t.nesting === -1) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    switch (t.type) {
      case 'inline':
        here().push(...build(t.children ?? []));
        break;
      case 'text':
      case 'html_inline':
      case 'html_block':
        here().push(t.content);
        break;
      case 'code_inline':
        here().push({ tag: 'code', attrs: {}, children: [t.content] });
        break;
      case 'code_block':
      case 'fence':
        here().push({ tag: 'pre', attrs: {}, children: [{ tag: 'code', attrs: {}, children: [t.content] }] });
        break;
      case 'softbreak':
        here().push('\n');
        break;
      case 'hardbreak':
        here().push({ tag: 'br', attrs: {}, children: [] });
        break;
      case 'hr':
        here().push({ tag: 'hr', attrs: {}, children: [] });
        break;
      case 'image':
        // never loaded: its description stands in for it
        here().push(t.content || (t.attrGet('alt') ?? ''));
        break;
      default:
        if (t.content) here().push(t.content);
    }
  }
  return root;
}

function element(t: Token): { tag: string; attrs: Record<string, string>; children: MdNode[] } {
  if (t.type === 'link_open') {
    const href = t.attrGet('href') ?? '';
    return isSafeHref(href)
      ? { tag: 'a', attrs: { href, rel: 'noopener noreferrer nofollow', target: '_blank' }, children: [] }
      : { tag: 'span', attrs: {}, children: [] };
  }
  const tag = ALLOWED_TAGS.has(t.tag) ? t.tag : 'span';
  if (tag === 'ol') {
    const start = t.attrGet('start');
    if (start && /^[0-9]{1,9}$/.test(start)) return { tag, attrs: { start }, children: [] };
  }
  return { tag, attrs: {}, children: [] };
}
