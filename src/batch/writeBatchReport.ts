import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/index.ts';
import { renderBatchSummary } from './renderBatchSummary.ts';
import type { BatchSummary } from './summarizeBatch.ts';

export const RESULTS_FILE = 'results.jsonl';
export const SUMMARY_FILE = 'summary.md';

/** OUT/results.jsonl (one finished entry a line, LIST order) and OUT/summary.md, both atomic. */
export async function writeBatchReport(out: string, summary: BatchSummary): Promise<string[]> {
  await mkdir(out, { recursive: true });
  const jsonl = summary.rows
    .filter((r) => r.result !== null)
    .map((r) => JSON.stringify(r.result))
    .join('\n');
  const files = [join(out, RESULTS_FILE), join(out, SUMMARY_FILE)];
  await writeFileAtomic(files[0] as string, jsonl === '' ? '' : `${jsonl}\n`);
  await writeFileAtomic(files[1] as string, renderBatchSummary(summary));
  return files;
}
