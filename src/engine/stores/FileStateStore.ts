import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StateFileError, WorkflowLockedError } from '../errors.ts';
import type { WorkflowState } from '../types.ts';
import type { StateStore } from './StateStore.ts';
import { takeLockFile } from './takeLockFile.ts';
import { validateState } from './validateState.ts';

export const DEFAULT_STATE_DIR = '.graph-state';
let tempCounter = 0;

/**
 * One JSON file per workflow id in a directory (`.graph-state/<id>.json`). Writes go to a temp
 * file that is renamed over the old one, so a crash at any moment leaves a whole file. (No fsync
 * per step: this protects against a killed process, which is the case that matters here, at a
 * fraction of the cost; a power loss may lose the last step, which a resume then repeats.)
 */
export class FileStateStore implements StateStore {
  readonly dir: string;

  constructor(dir: string = DEFAULT_STATE_DIR) {
    this.dir = resolve(dir);
  }

  locate(workflowId: string): string {
    return join(this.dir, `${workflowId}.json`);
  }

  async load(workflowId: string): Promise<WorkflowState | undefined> {
    const file = this.locate(workflowId);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StateFileError(file, (error as Error).message);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new StateFileError(file, `invalid JSON (${(error as Error).message})`);
    }
    return validateState(parsed, file, workflowId);
  }

  async save(state: WorkflowState): Promise<void> {
    const file = this.locate(state.workflowId);
    const temp = `${file}.${process.pid}.${++tempCounter}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify(state, null, 1));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(temp, JSON.stringify(state, null, 1));
    }
    renameSync(temp, file);
  }

  async delete(workflowId: string): Promise<boolean> {
    const file = this.locate(workflowId);
    const existed = existsSync(file);
    rmSync(file, { force: true });
    rmSync(join(this.dir, 'logs', workflowId), { recursive: true, force: true });
    return existed;
  }

  async list(): Promise<string[]> {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length))
      .sort();
  }

  async lock(workflowId: string): Promise<() => Promise<void>> {
    mkdirSync(this.dir, { recursive: true });
    const attempt = takeLockFile(join(this.dir, `${workflowId}.lock`));
    if (!attempt.acquired) throw new WorkflowLockedError(workflowId, attempt.holder);
    return async () => attempt.release();
  }
}
