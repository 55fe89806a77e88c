import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLlmCallLog, type LlmCallRecord, readLlmCallLog } from './llmCallLog.ts';

const record = (n: number): LlmCallRecord => ({
  time: new Date(0).toISOString(),
  role: 'fixer',
  provider: 'anthropic',
  model: 'claude-opus-5-5',
  inputTokens: n,
  outputTokens: n,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: n / 1000,
  durationMs: 1,
  outcome: 'ok',
  repairTurn: 0,
});

describe('llm call log', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rvport-calllog-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates its folder and keeps lines in call order, even when appends overlap', async () => {
    const path = join(dir, 'out', 'zlib', 'llm-calls.jsonl');
    const log = createLlmCallLog(path);
    await Promise.all([1, 2, 3, 4, 5].map((n) => log.append(record(n))));
    expect((await readLlmCallLog(path)).map((r) => r.inputTokens)).toEqual([1, 2, 3, 4, 5]);
  });

  it('reads a missing log as empty and skips a torn last line', async () => {
    const path = join(dir, 'llm-calls.jsonl');
    expect(await readLlmCallLog(path)).toEqual([]);
    await createLlmCallLog(path).append(record(7));
    await appendFile(path, '{"time":"2026-');
    expect(await readLlmCallLog(path)).toEqual([record(7)]);
  });
});
