import { describe, expect, it } from 'vitest';
import { failedResult } from './EntryResult.ts';
import { renderBatchSummary } from './renderBatchSummary.ts';
import { summarizeBatch } from './summarizeBatch.ts';
import { invalidEntry, portResult, validEntry } from './testing/batchFixtures.ts';

const sl = validEntry('sl', 1);
const cjson = validEntry('cjson', 2);
const luajit = validEntry('luajit', 3);
const memtest = validEntry('memtest86+', 4);
const bad = invalidEntry('ftp://x|y', 5, 'unknown SOURCE scheme ftp://');
const hello = validEntry('hello', 6);
const entries = [sl, cjson, luajit, memtest, bad, hello];
const results = new Map(
  [
    portResult(sl, { wallMs: 15_000, errorCategory: 'DEPENDENCY', attempts: 1 }),
    portResult(cjson, { buildSystem: 'cmake', wallMs: 40_000, llm: { calls: 3, costUsd: 0.125 } }),
    portResult(luajit, {
      verdict: 'escalated',
      exitCode: 1,
      errorCategory: 'ARCHITECTURE_IMPOSSIBLE',
      attempts: 1,
      wallMs: 2_000,
      message: 'escalated: no riscv64 backend',
    }),
    portResult(memtest, {
      verdict: 'escalated',
      exitCode: 1,
      errorCategory: 'REQUIRES_HARDWARE',
      attempts: 1,
      wallMs: 4_000,
      message: 'escalated: bare metal',
    }),
    failedResult(bad, 'invalid', 'unknown SOURCE scheme ftp://'),
  ].map((r) => [r.key, r]),
);

describe('summarizeBatch', () => {
  it('counts verified, failed and unfinished entries, and totals time and LLM cost', () => {
    const s = summarizeBatch(entries, results);
    expect(s).toMatchObject({
      entries: 6,
      finished: 5,
      verified: 2,
      failed: 3,
      pending: 1,
      wallMs: 61_000,
      llmCalls: 3,
      llmCostUsd: 0.125,
    });
    expect(s.rows.map((r) => r.result?.verdict ?? null)).toEqual([
      'verified',
      'verified',
      'escalated',
      'escalated',
      'invalid',
      null,
    ]);
  });

  it('totals per build system and failures per error category', () => {
    const s = summarizeBatch(entries, results);
    expect(s.byBuildSystem).toEqual([
      { buildSystem: 'make', entries: 3, verified: 1, failed: 2, wallMs: 21_000, llmCostUsd: 0 },
      { buildSystem: '(none)', entries: 1, verified: 0, failed: 1, wallMs: 0, llmCostUsd: 0 },
      { buildSystem: 'cmake', entries: 1, verified: 1, failed: 0, wallMs: 40_000, llmCostUsd: 0.125 },
    ]);
    // sl's repaired DEPENDENCY error is no failure
    expect(s.failuresByCategory).toEqual([
      { category: '(invalid entry)', entries: 1, packages: ['ftp://x|y'] },
      { category: 'ARCHITECTURE_IMPOSSIBLE', entries: 1, packages: ['luajit'] },
      { category: 'REQUIRES_HARDWARE', entries: 1, packages: ['memtest86+'] },
    ]);
  });
});

describe('renderBatchSummary', () => {
  it('renders rows in LIST order, the totals, and why entries failed', () => {
    const md = renderBatchSummary(summarizeBatch(entries, results));
    expect(md).toContain(
      '6 entries: 2 verified, 3 failed, 1 not finished. Wall time of the ports: 61.0 s in total.',
    );
    expect(md).toContain('| 1 | sl | verified | make | DEPENDENCY | 1 | 15.0 s | $0.00 |');
    expect(md).toContain('| 2 | cjson | verified | cmake | - | 0 | 40.0 s | $0.13 |');
    expect(md).toContain('| 6 | hello | not finished | | | | | |');
    expect(md).toContain('| cmake | 1 | 1 | 0 | 40.0 s | $0.13 |');
    expect(md).toContain('| ARCHITECTURE_IMPOSSIBLE | 1 | luajit |');
    expect(md).toContain('- line 3, luajit (escalated): escalated: no riscv64 backend');
    // user text cannot break the table
    expect(md).toContain('| 5 | ftp://x\\|y | invalid | - | - | - | - | - |');
  });

  it('marks a verified port whose tests fail only on riscv64, in its row and above the table', () => {
    const marked = new Map([
      [sl.key, portResult(sl, { riscv64OnlyFailures: 2 })],
      [cjson.key, portResult(cjson, { riscv64OnlyFailures: 0 })],
    ]);
    const md = renderBatchSummary(summarizeBatch([sl, cjson], marked));
    expect(md).toContain('| 1 | sl | verified, 2 fail only on riscv64 ⚠ | make |');
    expect(md).toContain('| 2 | cjson | verified | make |');
    expect(md).toContain(
      '1 verified port has tests or smoke runs that fail only on riscv64 (differential tests, marked ⚠): sl.',
    );
    expect(renderBatchSummary(summarizeBatch(entries, results))).not.toContain('fail only on riscv64');
  });

  it('says so when nothing failed', () => {
    const ok = new Map([[sl.key, portResult(sl)]]);
    expect(renderBatchSummary(summarizeBatch([sl], ok))).toContain(
      '## Failed entries by error category\n\nNone.',
    );
  });
});
