import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NodeRunContext } from '../../../engine/types.ts';
import type { BuildPlan, PortState } from '../../state/PortState.ts';
import { FakeSandbox, fakePortServices } from '../../testing/fakePortServices.ts';
import { portState } from '../../testing/portStateFixture.ts';
import { ensureBuildTree } from './ensureBuildTree.ts';

const plan: BuildPlan = {
  buildSystem: 'autotools',
  dir: '.',
  phases: [
    { name: 'configure', commands: ['./configure'] },
    { name: 'build', commands: ['make'] },
    { name: 'test', commands: ['make check'], optional: true },
    { name: 'install', commands: ['make DESTDIR="$RVPORT_DESTDIR" install'], optional: true },
  ],
  packages: ['libbsd-dev'],
  expectedArtifacts: [],
  origin: 'default',
};
const ctx = { signal: new AbortController().signal } as NodeRunContext;

function builtState(builtIn: string): PortState {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-rebuild-src-'));
  writeFileSync(join(dir, 'configure'), '#!/bin/sh\n');
  return portState({ source: { spec: dir, name: 'demo', dir }, plan, builtIn, buildStatus: 'SUCCESS' });
}

describe('ensureBuildTree', () => {
  it('does nothing in the instance that built', async () => {
    const sandbox = new FakeSandbox();
    expect(
      await ensureBuildTree(fakePortServices(sandbox), sandbox, builtState('fake'), ctx, 'verify'),
    ).toEqual({});
    expect(sandbox.commands).toEqual([]);
  });

  it('builds the final plan again in a new instance: packages and build phases, no tests', async () => {
    const sandbox = new FakeSandbox();
    const update = await ensureBuildTree(
      fakePortServices(sandbox),
      sandbox,
      builtState('gone-1'),
      ctx,
      'finish',
    );
    expect(sandbox.commands).toEqual([
      'rm -rf -- /build/dest',
      'apt-get install libbsd-dev',
      './configure',
      'make',
      'make DESTDIR="$RVPORT_DESTDIR" install',
    ]);
    expect(update.builtIn).toBe('fake');
    expect(update.audit?.at(-1)).toMatchObject({ node: 'finish', event: 'rebuilt' });
    expect(update.audit?.at(-1)?.detail).toMatch(/instance gone-1, which is gone/);
  });

  it('fails the run when a command that worked before fails now', async () => {
    const sandbox = new FakeSandbox((c) => ({ exitCode: c === 'make' ? 2 : 0 }));
    await expect(
      ensureBuildTree(fakePortServices(sandbox), sandbox, builtState('gone-1'), ctx, 'verify'),
    ).rejects.toThrow(/`make` failed \(exit 2\) although it worked before/);
  });
});
