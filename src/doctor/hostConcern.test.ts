import { describe, expect, it } from 'vitest';
import type { HostFacts } from '../sandbox/checkHost.ts';
import { HOST_COMMANDS } from '../sandbox/checkHost.ts';
import { evaluateHostConcern } from './hostConcern.ts';

const ready: HostFacts = {
  isRoot: true,
  hasApt: true,
  commands: Object.fromEntries(Object.keys(HOST_COMMANDS).map((c) => [c, true])),
  binfmt: {
    mounted: true,
    registered: true,
    enabled: true,
    interpreter: '/usr/libexec/qemu-binfmt/riscv64-binfmt-P',
    flags: 'PF',
    fixBinary: true,
  },
  overlayfs: true,
  namespaces: true,
  subordinateIds: true,
  user: 'root',
};

describe('evaluateHostConcern', () => {
  it('passes a ready host', () => {
    expect(evaluateHostConcern(ready).every((c) => c.status === 'ok')).toBe(true);
  });

  it('turns a missing command into the apt-get line that installs its package', () => {
    const checks = evaluateHostConcern({ ...ready, commands: { ...ready.commands, 'arch-test': false } });
    expect(checks.find((c) => c.id === 'command:arch-test')).toMatchObject({
      status: 'fail',
      fix: 'apt-get install -y arch-test',
    });
  });

  it('fails a riscv64 entry that is unregistered or lacks the F flag, with update-binfmts', () => {
    const unregistered = evaluateHostConcern({
      ...ready,
      binfmt: { mounted: true, registered: false, enabled: false, flags: '', fixBinary: false },
    });
    expect(unregistered.find((c) => c.id === 'binfmt-riscv64')).toMatchObject({
      status: 'fail',
      detail: 'no binfmt_misc entry for riscv64',
      fix: 'update-binfmts --enable qemu-riscv64',
    });
    const noF = evaluateHostConcern({ ...ready, binfmt: { ...ready.binfmt, flags: 'P', fixBinary: false } });
    expect(noF.find((c) => c.id === 'binfmt-riscv64')?.detail).toContain('lacks the F flag');
  });
});
