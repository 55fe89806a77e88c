import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BuildPlan, DebianKnowledge, PortState } from '../../state/PortState.ts';
import { FakeSandbox, fakePortServices, runPortNode } from '../../testing/fakePortServices.ts';
import { portState } from '../../testing/portStateFixture.ts';
import { buildNode } from './build.ts';

const plan: BuildPlan = {
  buildSystem: 'autotools',
  dir: '.',
  phases: [{ name: 'configure', commands: ['./configure'] }],
  packages: ['libfoo-dev'],
  expectedArtifacts: [],
  origin: 'default',
};

const knowledge: DebianKnowledge = {
  buildDepends: [
    ['libfoo-dev'],
    ['bison'],
    ['systemd'],
    ['libgone-dev', 'libz-dev'],
    ['libnone-a', 'libnone-b'],
    ['flex'],
  ],
  installed: [],
  leftOut: [],
  patchesApplied: [],
  patchesSkipped: [],
};

function debianState(debian: DebianKnowledge | null = knowledge): PortState {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-bd-src-'));
  writeFileSync(join(dir, 'configure'), '#!/bin/sh\n');
  return portState({
    source: { spec: 'debian:demo', name: 'demo', dir },
    plan,
    debian,
    buildStatus: 'PENDING',
  });
}

// apt in the sandbox: systemd's maintainer scripts cannot run there (as in accelerated mode)
const sandboxWhereSystemdBreaks = () =>
  new FakeSandbox((command) =>
    command.startsWith('apt-get install') && command.includes('systemd')
      ? { exitCode: 100 }
      : { exitCode: 0 },
  );
const installable = async () => new Set(['libfoo-dev', 'bison', 'systemd', 'libz-dev', 'flex']);

describe("the build installs Debian's Build-Depends without letting them break it", () => {
  it('installs the installable ones, leaves out what breaks the install and builds on', async () => {
    const sandbox = sandboxWhereSystemdBreaks();
    const svc = fakePortServices(sandbox, { installable });
    const update = await runPortNode(buildNode, debianState(), svc);
    expect(update.buildStatus).toBe('SUCCESS');
    expect(update.plan?.packages).toEqual(['bison', 'flex', 'libfoo-dev', 'libz-dev']);
    expect(update.debian?.installed.sort()).toEqual(['bison', 'flex', 'libz-dev']);
    expect(update.debian?.leftOut).toEqual([
      { name: 'libnone-a | libnone-b', reason: "no alternative is in the sandbox's package lists" },
      { name: 'systemd', reason: 'its install failed in the sandbox' },
    ]);
    // the plan's own packages first and alone, then the Build-Depends, narrowed down after the failure
    const installs = sandbox.commands.filter((c) => c.startsWith('apt-get install'));
    expect(installs[0]).toBe('apt-get install libfoo-dev');
    expect(installs[1]).toBe('apt-get install bison systemd libz-dev flex');
    expect(installs).toContain('apt-get install systemd');
    expect(sandbox.rollbacks.length).toBeGreaterThanOrEqual(2); // every failed install was undone
    expect(sandbox.commands.at(-1)).toBe('./configure');
    expect(readFileSync(svc.buildLog, 'utf8')).toContain("(Debian's Build-Depends)");
  });

  it('does not try again what it installed or left out before', async () => {
    const sandbox = sandboxWhereSystemdBreaks();
    const first = await runPortNode(buildNode, debianState(), fakePortServices(sandbox, { installable }));
    const again = new FakeSandbox();
    const state = { ...debianState(first.debian ?? null), plan: first.plan ?? plan };
    const update = await runPortNode(buildNode, state, fakePortServices(again, { installable }));
    expect(again.commands.filter((c) => c.startsWith('apt-get install'))).toEqual([
      'apt-get install bison flex libfoo-dev libz-dev',
    ]);
    expect(update.debian).toBeUndefined(); // nothing new to record
  });

  it('fails as before when the plan’s own packages do not install', async () => {
    const sandbox = new FakeSandbox((c) =>
      c === 'apt-get install libfoo-dev' ? { exitCode: 100 } : { exitCode: 0 },
    );
    const update = await runPortNode(buildNode, debianState(), fakePortServices(sandbox, { installable }));
    expect(update.buildStatus).toBe('FAILED');
    expect(sandbox.commands).toEqual(['rm -rf -- /build/dest', 'apt-get install libfoo-dev']);
  });

  it('changes nothing for a source without Debian knowledge', async () => {
    const sandbox = new FakeSandbox();
    const update = await runPortNode(
      buildNode,
      debianState(null),
      fakePortServices(sandbox, { installable }),
    );
    expect(update.buildStatus).toBe('SUCCESS');
    expect(update.plan?.packages).toEqual(['libfoo-dev']);
    expect(sandbox.commands.filter((c) => c.startsWith('apt-get install'))).toEqual([
      'apt-get install libfoo-dev',
    ]);
  });
});
