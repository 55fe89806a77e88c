import type { BatchEntry } from './BatchEntry.ts';
import { type EntryResult, isSuccessful } from './EntryResult.ts';

export interface BuildSystemTotal {
  /** `(none)` for entries that never reached a build (invalid, crashed before the analysis). */
  buildSystem: string;
  entries: number;
  verified: number;
  failed: number;
  wallMs: number;
  llmCostUsd: number;
}

export interface ErrorCategoryTotal {
  category: string;
  entries: number;
  packages: string[];
}

export interface BatchSummary {
  entries: number;
  finished: number;
  verified: number;
  failed: number;
  /** Entries not finished yet (the batch was interrupted, or is still running). */
  pending: number;
  /** Sum of the finished ports' wall times. */
  wallMs: number;
  llmCalls: number;
  llmCostUsd: number;
  /** In LIST order. */
  rows: Array<{ entry: BatchEntry; result: EntryResult | null }>;
  byBuildSystem: BuildSystemTotal[];
  /** Why entries failed: the port's last error category, or what stopped the entry. */
  failuresByCategory: ErrorCategoryTotal[];
}

const NO_BUILD_SYSTEM = '(none)';

/** The category a failed entry is counted under. */
export function failureCategory(result: EntryResult): string {
  switch (result.verdict) {
    case 'invalid':
      return '(invalid entry)';
    case 'crashed':
      return '(crashed)';
    case 'timed_out':
      return '(timed out)';
    default:
      return result.errorCategory ?? (result.verdict === 'not_verified' ? '(not verified)' : 'UNKNOWN');
  }
}

export function displayName(entry: BatchEntry): string {
  return entry.name ?? entry.source;
}

/** Totals of a batch from its entries and the results so far; pure. */
export function summarizeBatch(
  entries: readonly BatchEntry[],
  results: ReadonlyMap<string, EntryResult>,
): BatchSummary {
  const rows = entries.map((entry) => ({ entry, result: results.get(entry.key) ?? null }));
  const finished = rows.filter((r) => r.result !== null) as Array<{ entry: BatchEntry; result: EntryResult }>;
  const systems = new Map<string, BuildSystemTotal>();
  const categories = new Map<string, ErrorCategoryTotal>();
  for (const { entry, result } of finished) {
    const name = result.buildSystem ?? NO_BUILD_SYSTEM;
    const system = systems.get(name) ?? {
      buildSystem: name,
      entries: 0,
      verified: 0,
      failed: 0,
      wallMs: 0,
      llmCostUsd: 0,
    };
    system.entries += 1;
    if (isSuccessful(result)) system.verified += 1;
    else system.failed += 1;
    system.wallMs += result.wallMs;
    system.llmCostUsd += result.llm.costUsd;
    systems.set(name, system);
    if (!isSuccessful(result)) {
      const category = failureCategory(result);
      const total = categories.get(category) ?? { category, entries: 0, packages: [] };
      total.entries += 1;
      total.packages.push(displayName(entry));
      categories.set(category, total);
    }
  }
  const verified = finished.filter((r) => isSuccessful(r.result)).length;
  return {
    entries: entries.length,
    finished: finished.length,
    verified,
    failed: finished.length - verified,
    pending: entries.length - finished.length,
    wallMs: sum(finished.map((r) => r.result.wallMs)),
    llmCalls: sum(finished.map((r) => r.result.llm.calls)),
    llmCostUsd: sum(finished.map((r) => r.result.llm.costUsd)),
    rows,
    byBuildSystem: [...systems.values()].sort(
      (a, b) => b.entries - a.entries || a.buildSystem.localeCompare(b.buildSystem),
    ),
    failuresByCategory: [...categories.values()].sort(
      (a, b) => b.entries - a.entries || a.category.localeCompare(b.category),
    ),
  };
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
