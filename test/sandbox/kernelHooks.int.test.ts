import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChrootSandbox } from '../../src/sandbox/chroot/ChrootSandbox.ts';
import { createSandbox } from '../../src/sandbox/createSandbox.ts';
import { INSTALL_ENVIRONMENT } from '../../src/sandbox/packages/installEnvironment.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from './provisionedImages.ts';

// A kernel image that Build-Depends pull in runs /etc/kernel/postinst.d/initramfs-tools from its
// postinst, which makes an initramfs under emulation (about 45 s, twice with the trigger). The
// install environment turns that off; this runs trixie's real hook the way the kernel's postinst
// does (linux-run-hooks: run-parts with the version and the image path, DEB_MAINT_PARAMS set),
// once in the install environment and once without INITRD, on a kernel version with modules.
let box: ChrootSandbox;

beforeAll(async () => {
  await provisionedImages();
  box = await createSandbox({ mode: 'native-userland' });
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  await box?.destroy();
});

const VERSION = '6.12.0-rvport-test';
const runHooks = (env: Record<string, string>) =>
  box.run(
    [
      'run-parts',
      '--report',
      '--exit-on-error',
      `--arg=${VERSION}`,
      `--arg=/boot/vmlinux-${VERSION}`,
      '/etc/kernel/postinst.d',
    ],
    { env: { ...env, DEB_MAINT_PARAMS: 'configure' }, timeoutMs: 10 * 60_000 },
  );

describe('kernel hooks in an instance', () => {
  it(
    'make no initramfs in the install environment, and would without it',
    async () => {
      const installed = await box.installPackages(['initramfs-tools'], { timeoutMs: 15 * 60_000 });
      expect(installed.exitCode, installed.stderr.slice(-2000)).toBe(0);
      const made = await box.run(
        [
          'sh',
          '-c',
          `mkdir -p /lib/modules/${VERSION} && touch /boot/vmlinux-${VERSION} && depmod ${VERSION}`,
        ],
        { timeoutMs: 120_000 },
      );
      expect(made.exitCode, made.stderr).toBe(0);

      const skipped = await runHooks({ ...INSTALL_ENVIRONMENT });
      expect(skipped.exitCode, skipped.stderr).toBe(0);
      expect(`${skipped.stdout}${skipped.stderr}`).not.toContain('Generating');
      const none = await box.run(['sh', '-c', 'ls /boot'], { timeoutMs: 60_000 });
      expect(none.stdout).not.toContain('initrd.img');

      // the same hook without the switch really builds one: the switch is what stops it
      const { INITRD: _dropped, ...without } = INSTALL_ENVIRONMENT;
      const built = await runHooks(without);
      expect(`${built.stdout}${built.stderr}`).toContain(`Generating /boot/initrd.img-${VERSION}`);
      const present = await box.run(['sh', '-c', 'ls /boot'], { timeoutMs: 60_000 });
      expect(present.stdout).toContain(`initrd.img-${VERSION}`);
    },
    30 * 60_000,
  );
});
