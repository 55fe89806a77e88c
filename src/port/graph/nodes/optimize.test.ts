import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BuildPlan } from '../../state/PortState.ts';
import { FakeSandbox, fakePortServices, runPortNode } from '../../testing/fakePortServices.ts';
import { portState } from '../../testing/portStateFixture.ts';
import { optimizeNode } from './optimize.ts';

const plan: BuildPlan = {
  buildSystem: 'make',
  dir: '.',
  phases: [{ name: 'build', commands: ['make'] }],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};

function state(verdict: 'verified' | 'not_verified') {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-optimize-src-'));
  return portState({
    source: { spec: dir, name: 'demo', dir },
    plan,
    buildStatus: 'SUCCESS',
    optimizeRequested: true,
    verification: { verdict, reason: verdict === 'verified' ? '1 riscv64 ELF object' : 'no riscv64 output' },
  });
}

describe('the optimize node', () => {
  it('is skipped for a port that is not verified, touching nothing', async () => {
    const sandbox = new FakeSandbox(() => ({ exitCode: 0 }));
    const update = await runPortNode(optimizeNode, state('not_verified'), fakePortServices(sandbox));
    expect(update.optimization).toMatchObject({ status: 'skipped', reason: 'the port is not verified' });
    expect(update.audit?.at(-1)).toMatchObject({ node: 'optimize', event: 'skipped' });
    expect(sandbox.commands).toEqual([]);
    expect(update.buildStatus).toBeUndefined();
  });

  it('records a failure of performance mode and leaves the verified port as it was', async () => {
    // the probe prints nothing a probe would: performance mode fails, the port does not
    const sandbox = new FakeSandbox(() => ({ exitCode: 0, stdout: 'garbage' }));
    const update = await runPortNode(optimizeNode, state('verified'), fakePortServices(sandbox));
    expect(update.optimization).toMatchObject({ status: 'failed', verdict: 'no tune was measured' });
    expect(update.optimization?.reason).toBeTruthy();
    expect(update.audit?.at(-1)).toMatchObject({ node: 'optimize', event: 'failed' });
    expect(update.buildStatus).toBeUndefined();
    expect(update.verification).toBeUndefined();
    expect(update.escalationReason).toBeUndefined();
  });
});
