import { mkdirSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSandboxError } from '../errors.ts';
import { readTargets, resolveTarget, saveTarget, targetPaths } from './targetStore.ts';

describe('the target list', () => {
  it('resolves a saved name or a URL, with the saved identity', async () => {
    const home = await mkdtemp(join(tmpdir(), 'rvport-targets-'));
    await saveTarget(home, { name: 'board', url: 'ssh://rv@board:2222', identity: '/keys/rv' });
    await saveTarget(home, { name: 'other', url: 'ssh://rv@other' });
    await saveTarget(home, { name: 'board', url: 'ssh://rv@board:2222', identity: '/keys/new' });
    expect(await readTargets(home)).toHaveLength(2);
    const byName = await resolveTarget(home, 'board');
    expect(byName.target.port).toBe(2222);
    expect(byName.record?.identity).toBe('/keys/new');
    expect((await resolveTarget(home, 'ssh://rv@board:2222')).record?.name).toBe('board');
    expect((await resolveTarget(home, 'ssh://rv@unsaved')).record).toBeUndefined();
  });

  it('says what to do for an unknown name, a bad name and a broken file', async () => {
    const home = await mkdtemp(join(tmpdir(), 'rvport-targets-'));
    const unknown = await resolveTarget(home, 'nope').catch((e: unknown) => e);
    expect(isSandboxError(unknown) && unknown.fix).toMatch(/^rvport target add/);
    const bad = await saveTarget(home, { name: '../x', url: 'ssh://rv@h' }).catch((e: unknown) => e);
    expect(isSandboxError(bad) && bad.code).toBe('bad-target');
    mkdirSync(targetPaths(home).dir, { recursive: true });
    await writeFile(targetPaths(home).list, '{"targets": 3}');
    const broken = await readTargets(home).catch((e: unknown) => e);
    expect(isSandboxError(broken) && broken.message).toMatch(/is not a target list/);
  });
});
