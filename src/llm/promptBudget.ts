import type { LlmRole } from './llmRoles.ts';

/**
 * Tokens of file excerpts each role's prompt may carry (the rest of the context window is left
 * for instructions, state and the answer). The fixer gets most: the error and the code around it
 * decide the fix.
 */
export const ROLE_PROMPT_BUDGETS: Readonly<Record<LlmRole, number>> = {
  planner: 6_000,
  scout: 6_000,
  fixer: 8_000,
  summarizer: 3_000,
  curator: 2_000,
  optimizer: 4_000,
};

/** Source code runs at about 3.5 characters a token; erring high keeps prompts inside budget. */
const CHARS_PER_TOKEN = 3.5;
const MAX_LINE_CHARS = 400;
const FOCUS_CONTEXT_LINES = 8;
/** Below this a file's excerpt says too little to be worth its header. */
const MIN_USEFUL_TOKENS = 48;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export interface ExcerptSource {
  path: string;
  content: string;
  /** Lines (1-based) or patterns to centre on, e.g. the line of an error or `AC_CHECK_LIB`. */
  focus?: readonly (number | RegExp)[];
  /** Higher first when the budget cannot hold every file. */
  priority?: number;
}

export interface Excerpt {
  path: string;
  text: string;
  tokens: number;
  /** Lines left out of this file (0 when it fit whole). */
  omittedLines: number;
}

export interface ExcerptSet {
  excerpts: Excerpt[];
  /** Files left out entirely for lack of budget. */
  omittedFiles: string[];
  tokens: number;
}

/**
 * Excerpts of files that together stay within `budgetTokens`: small files whole, large ones as
 * windows around their focus lines plus their head and tail, with a marker where lines are left
 * out. The budget is shared out evenly, and what a small file does not use goes to the others.
 */
export function excerptFiles(files: readonly ExcerptSource[], budgetTokens: number): ExcerptSet {
  const ordered = files
    .map((file, index) => ({ file, index }))
    .sort((a, b) => (b.file.priority ?? 0) - (a.file.priority ?? 0) || a.index - b.index)
    .map(({ file }) => file);
  const kept = ordered.slice(0, Math.max(0, Math.floor(budgetTokens / MIN_USEFUL_TOKENS)));
  const omittedFiles = ordered.slice(kept.length).map((file) => file.path);

  const needs = kept.map(
    (file) => estimateTokens(header(file.path)) + estimateTokens(clipLines(file.content).join('\n')),
  );
  const grants = new Array<number>(kept.length).fill(0);
  let remaining = budgetTokens;
  const bySize = kept.map((_, i) => i).sort((a, b) => (needs[a] ?? 0) - (needs[b] ?? 0));
  bySize.forEach((fileIndex, position) => {
    const share = Math.floor(remaining / (bySize.length - position));
    const grant = Math.min(needs[fileIndex] ?? 0, share);
    grants[fileIndex] = grant;
    remaining -= grant;
  });

  const excerpts: Excerpt[] = [];
  kept.forEach((file, i) => {
    const grant = grants[i] ?? 0;
    const excerpt = excerptOne(file, grant - estimateTokens(header(file.path)));
    if (excerpt) excerpts.push(excerpt);
    else omittedFiles.push(file.path);
  });
  return { excerpts, omittedFiles, tokens: excerpts.reduce((sum, e) => sum + e.tokens, 0) };
}

function header(path: string): string {
  return `=== ${path} ===\n`;
}

function clipLines(content: string): string[] {
  return content
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} …` : line));
}

function excerptOne(file: ExcerptSource, budget: number): Excerpt | undefined {
  const lines = clipLines(file.content);
  const whole = lines.join('\n');
  if (estimateTokens(whole) <= budget) {
    return {
      path: file.path,
      text: whole,
      tokens: estimateTokens(header(file.path) + whole),
      omittedLines: 0,
    };
  }
  if (budget < MIN_USEFUL_TOKENS / 2) return undefined;

  const chosen = new Set<number>();
  let used = 0;
  const take = (index: number): boolean => {
    if (index < 0 || index >= lines.length || chosen.has(index)) return true;
    const cost = estimateTokens(`${lines[index]}\n`) + 1;
    if (used + cost > budget * 0.9) return false;
    chosen.add(index);
    used += cost;
    return true;
  };

  const focusLines = focusIndexes(lines, file.focus ?? []);
  for (const centre of focusLines) {
    for (let d = 0; d <= FOCUS_CONTEXT_LINES; d++) {
      if (!take(centre - d) || !take(centre + d)) break;
    }
  }
  // What is left: mostly the head (declarations, project setup), some of the tail.
  const headBudget = used + (budget * 0.9 - used) * 0.7;
  for (let i = 0; i < lines.length && used < headBudget; i++) if (!take(i)) break;
  for (let i = lines.length - 1; i >= 0; i--) if (!take(i)) break;

  const parts: string[] = [];
  let omitted = 0;
  let gapStart = -1;
  for (let i = 0; i <= lines.length; i++) {
    if (i < lines.length && !chosen.has(i)) {
      if (gapStart === -1) gapStart = i;
      continue;
    }
    if (gapStart !== -1) {
      parts.push(`… lines ${gapStart + 1}–${i} omitted …`);
      omitted += i - gapStart;
      gapStart = -1;
    }
    if (i < lines.length) parts.push(lines[i] as string);
  }
  const text = parts.join('\n');
  return { path: file.path, text, tokens: estimateTokens(header(file.path) + text), omittedLines: omitted };
}

function focusIndexes(lines: string[], focus: readonly (number | RegExp)[]): number[] {
  const indexes: number[] = [];
  for (const item of focus) {
    if (typeof item === 'number') {
      if (item >= 1 && item <= lines.length) indexes.push(item - 1);
      continue;
    }
    const pattern = new RegExp(item.source, item.flags.replace('g', ''));
    lines.forEach((line, i) => {
      if (pattern.test(line)) indexes.push(i);
    });
  }
  return [...new Set(indexes)];
}

/** The excerpts as prompt text, one header per file, and a note of what was left out. */
export function renderExcerpts(set: ExcerptSet): string {
  const blocks = set.excerpts.map((e) => `${header(e.path)}${e.text}`);
  if (set.omittedFiles.length > 0)
    blocks.push(`(not shown for lack of space: ${set.omittedFiles.join(', ')})`);
  return blocks.join('\n\n');
}

/** The end of a long text (a build log: the error is at the bottom) within a token budget. */
export function tailWithinBudget(text: string, budgetTokens: number): string {
  if (estimateTokens(text) <= budgetTokens) return text;
  const keep = Math.max(0, Math.floor(budgetTokens * CHARS_PER_TOKEN) - 40);
  const tail = text.slice(text.length - keep);
  const cut = tail.indexOf('\n');
  const clean = cut >= 0 && cut < 200 ? tail.slice(cut + 1) : tail;
  return `… ${text.length - clean.length} earlier characters omitted …\n${clean}`;
}
