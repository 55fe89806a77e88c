import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { LlmRole } from './llmRoles.ts';

/** How one HTTP exchange ended; `invalid` means a reply arrived but failed validation. */
export type LlmExchangeOutcome = 'ok' | 'invalid' | 'rate_limited' | 'timeout' | 'aborted' | 'error';

/** One line of `llm-calls.jsonl` (SPEC 3). */
export interface LlmCallRecord {
  time: string;
  role: LlmRole;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  durationMs: number;
  outcome: LlmExchangeOutcome;
  /** 0 for the first reply of a call, 1… for repair turns. */
  repairTurn: number;
  error?: string;
}

export interface LlmCallLog {
  append(record: LlmCallRecord): Promise<void>;
}

/**
 * Appends one JSON line per exchange. Appends are chained so lines keep call order, and each
 * line is a single `appendFile` (one O_APPEND write), so a crash never leaves half a line
 * followed by another record.
 */
export function createLlmCallLog(path: string): LlmCallLog {
  let tail: Promise<void> = mkdir(dirname(path), { recursive: true }).then(() => undefined);
  return {
    append(record) {
      tail = tail.then(() => appendFile(path, `${JSON.stringify(record)}\n`, 'utf8'));
      return tail;
    },
  };
}

/** All records of a log; a missing file is an empty log. A torn last line is skipped. */
export async function readLlmCallLog(path: string): Promise<LlmCallRecord[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const records: LlmCallRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line) as LlmCallRecord);
    } catch {
      // Only a crash mid-write produces this, and only on the last line.
    }
  }
  return records;
}
