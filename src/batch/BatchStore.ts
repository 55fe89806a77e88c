import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { takeLockFile } from '../engine/index.ts';
import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../errors/index.ts';
import { writeJsonAtomic } from '../fs/index.ts';
import type { EntryResult } from './EntryResult.ts';

export const BATCH_STATE_FILE = 'batch.json';
/** Held by the one batch that runs on an OUT folder (its pid in it). */
export const BATCH_LOCK_FILE = 'batch.lock';

export type BatchStateErrorCode = 'corrupt-batch-state' | 'batch-locked';

export class BatchStateError extends RvportError {
  override name = 'BatchStateError';
  declare readonly code: BatchStateErrorCode;
  constructor(code: BatchStateErrorCode, message: string, options?: RvportErrorOptions) {
    super(code, message, options);
  }
}

export function isBatchStateError(error: unknown): error is BatchStateError {
  return isRvportErrorNamed(error, ['BatchStateError']);
}

interface BatchStateFile {
  rvportBatch: 1;
  /** Names this batch's jobs on a queue; a new one after `--force`. */
  batchId: string;
  results: Record<string, EntryResult>;
  /** Time already spent on entries that were interrupted, added when they finish. */
  unfinishedMs?: Record<string, number>;
}

/**
 * The finished entries of a batch in OUT/batch.json, rewritten atomically after every result:
 * a batch stopped at any moment (Ctrl+C, SIGKILL, power) loses nothing it had finished, and the
 * next run skips what is in here. Writes are queued, so the file always holds the latest state.
 */
export class BatchStore {
  private state: BatchStateFile | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly dir: string) {}

  get file(): string {
    return join(this.dir, BATCH_STATE_FILE);
  }

  /**
   * One batch at a time per OUT: a second one would keep its own copy of the results and write
   * it over the first one's (and start the same ports twice). A batch that died leaves a lock
   * the next one takes over. Returns the release.
   */
  async lock(): Promise<() => void> {
    await mkdir(this.dir, { recursive: true });
    const attempt = takeLockFile(join(this.dir, BATCH_LOCK_FILE));
    if (!attempt.acquired) {
      throw new BatchStateError(
        'batch-locked',
        `another rvport batch (process ${attempt.holder}) is running in ${this.dir}; wait for it to end or use another --out (if none runs, remove ${join(this.dir, BATCH_LOCK_FILE)})`,
      );
    }
    return attempt.release;
  }

  async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // saved at once: a queue's jobs are named after the batch id, which must outlive a Ctrl+C
      this.state = fresh();
      await this.save();
      return;
    }
    let parsed: BatchStateFile;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new BatchStateError(
        'corrupt-batch-state',
        `${this.file} is not JSON (${(error as Error).message}); remove it or use --force`,
      );
    }
    if (
      parsed?.rvportBatch !== 1 ||
      typeof parsed.batchId !== 'string' ||
      typeof parsed.results !== 'object'
    ) {
      throw new BatchStateError(
        'corrupt-batch-state',
        `${this.file} is no rvport batch state; remove it or use --force`,
      );
    }
    this.state = parsed;
  }

  private get loaded(): BatchStateFile {
    if (!this.state) throw new Error('BatchStore: load() first');
    return this.state;
  }

  get batchId(): string {
    return this.loaded.batchId;
  }

  result(key: string): EntryResult | undefined {
    return this.loaded.results[key];
  }

  results(): ReadonlyMap<string, EntryResult> {
    return new Map(Object.entries(this.loaded.results));
  }

  /** Forgets every result and starts a new batch id (`--force`). */
  async clear(): Promise<void> {
    this.state = fresh();
    await this.save();
  }

  /** Records a finished entry; its wall time includes the interrupted runs before this one. */
  async record(result: EntryResult): Promise<EntryResult> {
    const state = this.loaded;
    const earlier = state.unfinishedMs?.[result.key] ?? 0;
    const recorded = earlier > 0 ? { ...result, wallMs: result.wallMs + earlier } : result;
    state.results[result.key] = recorded;
    if (state.unfinishedMs) delete state.unfinishedMs[result.key];
    await this.save();
    return recorded;
  }

  /** Remembers the time an interrupted entry ran, so its wall time is whole once it finishes. */
  async addUnfinishedTime(key: string, ms: number): Promise<void> {
    if (ms <= 0) return;
    const state = this.loaded;
    state.unfinishedMs ??= {};
    state.unfinishedMs[key] = (state.unfinishedMs[key] ?? 0) + ms;
    await this.save();
  }

  private save(): Promise<void> {
    const snapshot = JSON.parse(JSON.stringify(this.loaded)) as BatchStateFile;
    this.writing = this.writing
      .catch(() => {})
      .then(async () => {
        await mkdir(this.dir, { recursive: true });
        await writeJsonAtomic(this.file, snapshot);
      });
    return this.writing;
  }
}

function fresh(): BatchStateFile {
  return { rvportBatch: 1, batchId: randomBytes(6).toString('hex'), results: {} };
}
