import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOST_COMMANDS, type HostFacts } from './checkHost.ts';
import { isSandboxError } from './errors.ts';
import { prepareHost } from './prepareHost.ts';

const allCommands = Object.fromEntries(Object.keys(HOST_COMMANDS).map((c) => [c, true]));
const ready: HostFacts = {
  isRoot: true,
  hasApt: true,
  commands: allCommands,
  binfmt: { mounted: true, registered: true, enabled: true, flags: 'PF', fixBinary: true },
  overlayfs: true,
  namespaces: true,
  subordinateIds: true,
  user: 'root',
};

/** A host whose state the fake commands change, like the real ones would. */
function fakeHost(initial: HostFacts, aptFailsFirst = false) {
  let facts = structuredClone(initial);
  const ran: string[] = [];
  let aptCalls = 0;
  return {
    ran,
    lockFile: join(mkdtempSync(join(tmpdir(), 'rvport-prepare-host-')), 'host.lock'),
    probe: async () => structuredClone(facts),
    run: async (command: readonly string[]) => {
      ran.push(command.join(' ').replace('-o DPkg::Lock::Timeout=300 ', ''));
      await new Promise((resolve) => setTimeout(resolve, 20)); // a command takes time
      if (command[0] === 'apt-get' && command.includes('install')) {
        aptCalls++;
        if (aptFailsFirst && aptCalls === 1) return { exitCode: 100, output: 'E: Unable to locate package' };
        facts = {
          ...facts,
          commands: allCommands,
          binfmt: { ...facts.binfmt, registered: true, enabled: true },
        };
      }
      if (command[0] === 'mount') facts = { ...facts, binfmt: { ...facts.binfmt, mounted: true } };
      if (command[0] === 'update-binfmts')
        facts = { ...facts, binfmt: { ...facts.binfmt, flags: 'PF', fixBinary: true } };
      return { exitCode: 0, output: '' };
    },
  };
}

describe('prepareHost', () => {
  it('does nothing on a ready host', async () => {
    const host = fakeHost(ready);
    await prepareHost(host);
    expect(host.ran).toEqual([]);
  });

  it('installs, mounts binfmt_misc and registers riscv64 as root', async () => {
    const host = fakeHost(
      {
        ...ready,
        commands: { ...allCommands, mmdebstrap: false, 'qemu-riscv64-static': false },
        binfmt: { mounted: false, registered: false, enabled: false, flags: '', fixBinary: false },
      },
      true,
    );
    const checks = await prepareHost(host);
    expect(checks.every((c) => c.ok)).toBe(true);
    expect(host.ran).toEqual([
      'apt-get install -y -q --no-install-recommends qemu-user-static mmdebstrap',
      'apt-get update -q',
      'apt-get install -y -q --no-install-recommends qemu-user-static mmdebstrap',
      'mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc',
      'update-binfmts --enable qemu-riscv64',
    ]);
  });

  it('asks apt to wait for a dpkg lock another program holds', async () => {
    const host = fakeHost({ ...ready, commands: { ...allCommands, mmdebstrap: false } });
    const commands: string[] = [];
    const run = (command: readonly string[]) => {
      commands.push(command.join(' '));
      return host.run(command);
    };
    await prepareHost({ ...host, run });
    expect(commands[0]).toBe(
      'apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends mmdebstrap',
    );
  });

  it('two at once (a batch on a new machine): one prepares, the other finds it done', async () => {
    const host = fakeHost({
      ...ready,
      commands: { ...allCommands, mmdebstrap: false },
      binfmt: { mounted: false, registered: false, enabled: false, flags: '', fixBinary: false },
    });
    const both = await Promise.all([prepareHost(host), prepareHost(host)]);
    expect(both.every((checks) => checks.every((c) => c.ok))).toBe(true);
    expect(host.ran).toEqual([
      'apt-get install -y -q --no-install-recommends mmdebstrap',
      'mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc',
      'update-binfmts --enable qemu-riscv64',
    ]);
  });

  it('without root changes nothing and says what to run', async () => {
    const host = fakeHost({ ...ready, isRoot: false, commands: { ...allCommands, mmdebstrap: false } });
    // no lock is taken either: a lock file where none can be made would fail the call
    const error = await prepareHost({ ...host, lockFile: '/nonexistent/rvport/host.lock' }).catch(
      (e: unknown) => e,
    );
    expect(isSandboxError(error) && error.code).toBe('host-not-ready');
    expect(isSandboxError(error) && error.message).toMatch(/mmdebstrap not found/);
    expect(isSandboxError(error) && error.fix).toMatch(/apt-get install -y mmdebstrap/);
    expect(host.ran).toEqual([]);
  });
});
