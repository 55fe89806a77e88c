import type { BatchEntry, ValidBatchEntry } from '../BatchEntry.ts';
import type { EntryResult } from '../EntryResult.ts';

export function validEntry(name: string, line: number): ValidBatchEntry {
  return { key: `debian:${name}`, line, source: `debian:${name}`, name, invalid: null };
}

export function invalidEntry(source: string, line: number, why: string): BatchEntry {
  return { key: source, line, source, name: null, invalid: why };
}

export function portResult(entry: BatchEntry, over: Partial<EntryResult> = {}): EntryResult {
  return {
    key: entry.key,
    line: entry.line,
    source: entry.source,
    name: entry.name,
    verdict: 'verified',
    exitCode: 0,
    buildSystem: 'make',
    errorCategory: null,
    attempts: 0,
    wallMs: 10_000,
    llm: { calls: 0, costUsd: 0 },
    cacheHit: false,
    tests: null,
    message: 'verified',
    worker: 'local',
    finishedAt: '2026-11-30T12:00:00.000Z',
    ...over,
  };
}
