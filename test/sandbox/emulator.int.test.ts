import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINFMT_ENTRY } from '../../src/sandbox/emulator/binfmtRegistration.ts';
import { type ChrootSandbox, createSandbox } from '../../src/sandbox/index.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from './provisionedImages.ts';

// clone(CLONE_PIDFD | SIGCHLD) as Qt's QProcess starts a program (its forkfd); riscv64's
// clone is system call 220. qemu-user 7.2 answers EINVAL (22); the images' qemu-user starts the child.
const CLONE_PIDFD = `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
pidfd = ctypes.c_int(-1)
pid = libc.syscall(220, 0x1011, 0, ctypes.byref(pidfd), 0, 0)
if pid == 0:
    os._exit(7)
if pid < 0:
    print("errno", ctypes.get_errno())
else:
    _, status = os.waitpid(pid, 0)
    print("child exited", os.waitstatus_to_exitcode(status), "pidfd", pidfd.value >= 0)
`;

const ENTRY = `/proc/sys/fs/binfmt_misc/${BINFMT_ENTRY}`;
const boxes: ChrootSandbox[] = [];

beforeAll(async () => {
  await provisionedImages();
  boxes.push(
    await createSandbox({ mode: 'accelerated' }),
    await createSandbox({ mode: 'emulated' }),
    // the tallest stack: apt, evidence and native layers over the rootfs, and the tools tree
    await createSandbox({ mode: 'native-userland', evidence: {} }),
  );
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  for (const box of boxes) await box.destroy();
});

const MODES = ['accelerated', 'emulated', 'native-userland'] as const;

describe.each(MODES)('the images’ emulator, in %s mode', (mode) => {
  const box = () => boxes[MODES.indexOf(mode)] as ChrootSandbox;

  it('runs riscv64 programs under the instance’s own binfmt_misc entry, as the base RV64GC model', async () => {
    const entry = await box().run(['cat', ENTRY]);
    expect(entry.exitCode).toBe(0);
    expect(entry.stdout).toMatch(/^enabled\n/);
    expect(entry.stdout).toContain('flags: PF');
    // the host's own registration is not seen inside
    expect((await box().run(['ls', '/proc/sys/fs/binfmt_misc'])).stdout.split('\n').sort()).toEqual(
      ['', BINFMT_ENTRY, 'register', 'status'].sort(),
    );
    expect((await box().run(['sh', '-c', 'echo "$QEMU_CPU"'])).stdout).toBe('rv64\n');
    expect((await box().run(['uname', '-m'])).stdout).toBe('riscv64\n');
  });

  it('starts a process with clone(CLONE_PIDFD), which the host’s qemu-user 7.2 refuses', async () => {
    const result = await box().run(['python3', '-c', CLONE_PIDFD]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('child exited 7 pidfd True\n');
  });

  it('hands programs their environment in order', async () => {
    const result = await box().run(['env', '-i', 'A=1', 'B=2', 'C=3', 'env']);
    expect(result.stdout).toBe('A=1\nB=2\nC=3\n');
  });

  it('cannot be switched off, replaced or unmounted by the build, nor a second interpreter registered', async () => {
    const script = [
      `echo -1 > ${ENTRY}`,
      `echo 0 > ${ENTRY}`,
      'echo 0 > /proc/sys/fs/binfmt_misc/status',
      `printf ':evil:E::sh::/bin/sh:' > /proc/sys/fs/binfmt_misc/register`,
      'umount /proc/sys/fs/binfmt_misc',
      'umount -l /proc/sys/fs/binfmt_misc',
      'mount -t binfmt_misc binfmt_misc /tmp',
      'true',
    ].join('; ');
    const attack = await box().run(['sh', '-c', script]);
    expect(attack.stderr).toMatch(/Read-only file system/);
    const after = await box().run([
      'sh',
      '-c',
      `head -1 ${ENTRY}; LC_ALL=C ls /proc/sys/fs/binfmt_misc; uname -m`,
    ]);
    expect(after.stdout).toBe(`enabled\nregister\n${BINFMT_ENTRY}\nstatus\nriscv64\n`);
    // a fresh command of the same instance has it too, and the host's entry is as it was
    expect((await box().run(['python3', '-c', CLONE_PIDFD])).stdout).toBe('child exited 7 pidfd True\n');
    const host = await readFile('/proc/sys/fs/binfmt_misc/qemu-riscv64', 'utf8').catch(() => '');
    if (host) expect(host).toMatch(/^enabled\n/);
    await expect(readFile(`/proc/sys/fs/binfmt_misc/${BINFMT_ENTRY}`, 'utf8')).rejects.toThrow();
  });
});
