import { describe, expect, it } from 'vitest';
import { LLM_ROLES } from './llmRoles.ts';
import {
  estimateTokens,
  excerptFiles,
  ROLE_PROMPT_BUDGETS,
  renderExcerpts,
  tailWithinBudget,
} from './promptBudget.ts';

const numbered = (count: number, prefix = 'line') =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}: some build file content here`).join('\n');

describe('estimateTokens', () => {
  it('errs high: about one token per 3.5 characters', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcdefg')).toBe(2);
    expect(estimateTokens('x'.repeat(3500))).toBe(1000);
  });
});

describe('excerptFiles', () => {
  it('keeps small files whole', () => {
    const set = excerptFiles([{ path: 'configure.ac', content: 'AC_INIT([mad], [0.15])\nAC_OUTPUT' }], 1000);
    expect(set.excerpts).toEqual([
      expect.objectContaining({
        path: 'configure.ac',
        text: 'AC_INIT([mad], [0.15])\nAC_OUTPUT',
        omittedLines: 0,
      }),
    ]);
    expect(set.omittedFiles).toEqual([]);
  });

  it('stays within the budget and marks what it left out', () => {
    const big = numbered(2000);
    const set = excerptFiles([{ path: 'Makefile.in', content: big }], 600);
    expect(set.tokens).toBeLessThanOrEqual(600);
    const [excerpt] = set.excerpts;
    expect(excerpt?.omittedLines).toBeGreaterThan(1500);
    expect(excerpt?.text).toMatch(/^line 1: /);
    expect(excerpt?.text).toMatch(/… lines \d+–\d+ omitted …/);
    expect(excerpt?.text).toMatch(/line 2000: .*$/);
  });

  it('centres on focus lines and patterns', () => {
    const lines = numbered(3000).split('\n');
    lines[1499] = 'FPM_64BIT asm("mulq %3") /* x86 only */';
    const set = excerptFiles([{ path: 'fixed.h', content: lines.join('\n'), focus: [/asm\(/, 2500] }], 800);
    const text = set.excerpts[0]?.text ?? '';
    expect(text).toContain('asm("mulq %3")');
    expect(text).toContain('line 1492:');
    expect(text).toContain('line 1508:');
    expect(text).toContain('line 2500:');
    expect(set.tokens).toBeLessThanOrEqual(800);
  });

  it('shares the budget: what small files leave goes to the large one', () => {
    const files = [
      { path: 'small-a', content: 'a\nb' },
      { path: 'large', content: numbered(5000) },
      { path: 'small-b', content: 'c' },
    ];
    const set = excerptFiles(files, 1200);
    expect(set.excerpts.map((e) => e.path)).toEqual(['small-a', 'large', 'small-b']);
    expect(set.tokens).toBeLessThanOrEqual(1200);
    // An even three-way split would give it 400.
    expect(set.excerpts[1]?.tokens).toBeGreaterThan(900);
  });

  it('drops the lowest-priority files when even a useful excerpt each does not fit', () => {
    const files = Array.from({ length: 6 }, (_, i) => ({
      path: `f${i}`,
      content: numbered(200),
      priority: i,
    }));
    const set = excerptFiles(files, 120);
    expect(set.excerpts.map((e) => e.path)).toEqual(['f5', 'f4']);
    expect(set.omittedFiles).toEqual(['f3', 'f2', 'f1', 'f0']);
    expect(renderExcerpts(set)).toMatch(/=== f5 ===[\s\S]*not shown for lack of space: f3, f2, f1, f0/);
  });

  it('clips minified lines', () => {
    const set = excerptFiles([{ path: 'min.js', content: 'x'.repeat(10_000) }], 5_000);
    expect(set.excerpts[0]?.text.length).toBeLessThan(500);
  });

  it('has a budget for every role', () => {
    for (const role of LLM_ROLES) expect(ROLE_PROMPT_BUDGETS[role]).toBeGreaterThan(1000);
  });
});

describe('tailWithinBudget', () => {
  it('keeps the end of a log, where the error is', () => {
    const log = `${numbered(5000, 'cc')}\nfixed.h:123: Error: unrecognized opcode 'mulq'`;
    const tail = tailWithinBudget(log, 300);
    expect(estimateTokens(tail)).toBeLessThanOrEqual(300);
    expect(tail).toMatch(/^… \d+ earlier characters omitted …\ncc /);
    expect(tail.endsWith("unrecognized opcode 'mulq'")).toBe(true);
    expect(tailWithinBudget('short', 300)).toBe('short');
  });
});
