import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isEngineError, StateFileError, WorkflowLockedError } from '../errors.ts';
import { createInitialState } from '../state.ts';
import { FileStateStore } from './FileStateStore.ts';
import { MemoryStateStore } from './MemoryStateStore.ts';
import type { StateStore } from './StateStore.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rvport-store-'));
  dirs.push(d);
  return d;
}

const stores: Array<[string, () => StateStore]> = [
  ['FileStateStore', () => new FileStateStore(join(tempDir(), 'nested', '.graph-state'))],
  ['MemoryStateStore', () => new MemoryStateStore()],
];

describe.each(stores)('%s', (_name, make) => {
  it('returns undefined for an unknown id', async () => {
    expect(await make().load('nothing')).toBeUndefined();
  });

  it('round-trips a state and overwrites it', async () => {
    const store = make();
    const state = createInitialState('wf', 'a', { n: 1, deep: { list: [1, 2] } }, new Date(0));
    await store.save(state);
    expect(await store.load('wf')).toEqual(state);
    await store.save({ ...state, steps: 3, context: { n: 2 } });
    expect(await store.load('wf')).toMatchObject({ steps: 3, context: { n: 2 } });
  });

  it('lists and deletes', async () => {
    const store = make();
    await store.save(createInitialState('b', 'x', {}, new Date(0)));
    await store.save(createInitialState('a', 'x', {}, new Date(0)));
    expect(await store.list()).toEqual(['a', 'b']);
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
    expect(await store.list()).toEqual(['b']);
  });

  it('lets one runner hold the lock of an id at a time', async () => {
    const store = make();
    const release = await store.lock('wf');
    await expect(store.lock('wf')).rejects.toSatisfy((e: unknown) => isEngineError(e, 'locked'));
    const other = await store.lock('other');
    await release();
    await other();
    const again = await store.lock('wf');
    await again();
  });
});

describe('FileStateStore specifics', () => {
  it('writes atomically: no temp files remain, the file is whole JSON', async () => {
    const dir = tempDir();
    const store = new FileStateStore(dir);
    for (let i = 0; i < 20; i++)
      await store.save({ ...createInitialState('wf', 'a', { i }, new Date(0)), steps: i });
    expect(readdirSync(dir)).toEqual(['wf.json']);
    expect(await store.load('wf')).toMatchObject({ steps: 19 });
  });

  it('refuses a corrupt file with an error naming it', async () => {
    const dir = tempDir();
    const store = new FileStateStore(dir);
    writeFileSync(join(dir, 'wf.json'), '{"formatVersion": 1, "workflowId": "wf", trunc');
    await expect(store.load('wf')).rejects.toThrow(StateFileError);
    await expect(store.load('wf')).rejects.toThrow(join(dir, 'wf.json'));
  });

  it('refuses a state of another format version or id', async () => {
    const dir = tempDir();
    const store = new FileStateStore(dir);
    const state = createInitialState('wf', 'a', {}, new Date(0));
    writeFileSync(join(dir, 'wf.json'), JSON.stringify({ ...state, formatVersion: 99 }));
    await expect(store.load('wf')).rejects.toThrow(/format version 99/);
    writeFileSync(join(dir, 'wf.json'), JSON.stringify({ ...state, workflowId: 'other' }));
    await expect(store.load('wf')).rejects.toThrow(/workflowId is "other"/);
  });

  it('takes over a lock left by a dead process, not one held by a live one', async () => {
    const dir = tempDir();
    const store = new FileStateStore(dir);
    writeFileSync(join(dir, 'wf.lock'), '999999999');
    const release = await store.lock('wf');
    await release();
    writeFileSync(join(dir, 'wf.lock'), String(process.ppid));
    await expect(store.lock('wf')).rejects.toThrow(WorkflowLockedError);
  });
});
