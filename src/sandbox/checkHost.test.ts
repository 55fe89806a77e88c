import { describe, expect, it } from 'vitest';
import { evaluateHost, fixCommands, HOST_COMMANDS, type HostFacts, hostPackages } from './checkHost.ts';

const allCommands = Object.fromEntries(Object.keys(HOST_COMMANDS).map((c) => [c, true]));
const ready: HostFacts = {
  isRoot: true,
  hasApt: true,
  commands: allCommands,
  binfmt: { mounted: true, registered: true, enabled: true, flags: 'PF', fixBinary: true, interpreter: '/q' },
  overlayfs: true,
  namespaces: true,
  subordinateIds: true,
  user: 'root',
};

describe('evaluateHost', () => {
  it('passes a ready host', () => {
    expect(evaluateHost(ready).every((c) => c.ok)).toBe(true);
    expect(fixCommands(evaluateHost(ready))).toEqual([]);
  });

  it('names the missing packages in one apt-get line and the binfmt fix', () => {
    const checks = evaluateHost({
      ...ready,
      commands: { ...allCommands, mmdebstrap: false, 'qemu-riscv64-static': false },
      binfmt: { ...ready.binfmt, flags: 'P', fixBinary: false },
    });
    expect(checks.filter((c) => !c.ok).map((c) => c.id)).toEqual([
      'command:qemu-riscv64-static',
      'command:mmdebstrap',
      'binfmt-riscv64',
    ]);
    expect(checks.find((c) => c.id === 'binfmt-riscv64')?.detail).toMatch(/F flag/);
    expect(fixCommands(checks)).toEqual([
      'apt-get install -y qemu-user-static mmdebstrap',
      'update-binfmts --enable qemu-riscv64',
    ]);
  });

  it('asks for root first', () => {
    const fixes = fixCommands(evaluateHost({ ...ready, isRoot: false, overlayfs: false }));
    expect(fixes[0]).toMatch(/as root/);
    expect(fixes).toContain('modprobe overlay');
  });

  it('needs no root when everything is in place, and names the subordinate ids when they are missing', () => {
    const rootless = { ...ready, isRoot: false, user: 'porter' };
    expect(evaluateHost(rootless).every((c) => c.ok)).toBe(true);
    const checks = evaluateHost({ ...rootless, subordinateIds: false, namespaces: false });
    expect(checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['root', 'subordinate-ids', 'namespaces']);
    expect(fixCommands(checks)[1]).toBe(
      'usermod --add-subuids 100000-165535 --add-subgids 100000-165535 porter',
    );
  });
});

describe('hostPackages', () => {
  it('names every package of the checked commands and the support packages, each once', () => {
    const packages = hostPackages();
    expect(new Set(packages).size).toBe(packages.length);
    for (const pkg of Object.values(HOST_COMMANDS)) expect(packages).toContain(pkg);
    expect(packages).toEqual(expect.arrayContaining(['qemu-user-static', 'musl-tools', 'xz-utils', 'gpgv']));
  });
});
