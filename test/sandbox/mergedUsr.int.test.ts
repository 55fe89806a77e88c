import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChrootSandbox, createSandbox } from '../../src/sandbox/index.ts';
import type { SandboxMode } from '../../src/sandbox/Sandbox.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from './provisionedImages.ts';

const HELLO_C = `#include <stdio.h>
int main(void) { puts("hello riscv64"); return 0; }
`;

// a program of every library whose -dev package comes with systemd, udev or D-Bus
const LIBS_C = `#include <stdio.h>
#include <glib.h>
#include <dbus/dbus.h>
#include <libudev.h>
#include <systemd/sd-id128.h>
int main(void) {
  sd_id128_t id;
  int major, minor, micro;
  dbus_get_version(&major, &minor, &micro);
  struct udev *udev = udev_new();
  gchar *line = g_strdup_printf("glib %u.%u dbus %d.%d udev %s sd %d", glib_major_version,
                                glib_minor_version, major, minor, udev ? "yes" : "no",
                                sd_id128_randomize(&id));
  puts(line);
  g_free(line);
  udev_unref(udev);
  return 0;
}
`;

// riscv64 is ELF machine 243 (0xf3); od and the shell are the x86_64 ones in native-userland mode
const LAYOUT_AND_HELLO = `set -e
printf 'link %s\\n' "$(readlink /lib64)"
printf 'resolved %s\\n' "$(readlink -f /lib64)"
printf 'loader %s\\n' "$(readlink -f /lib64/ld-linux-x86-64.so.2)"
printf 'gcc %s\\n' "$(readlink -f "$(command -v gcc)")"
printf 'sh %s\\n' "$(readlink -f "$(command -v sh)")"
gcc -O2 hello.c -o hello
./hello
printf 'machine %s\\n' "$(od -An -tu2 -j18 -N2 hello | tr -d ' ')"
`;

/**
 * systemd's pre-installation script refuses a system that is not merged-/usr, and the layers'
 * own /lib64 points into the x86_64 tools tree; an instance's upper layer makes it merged again
 * (chroot/mergedUsrUpper.ts). udev pulls systemd itself.
 */
const PACKAGES = ['libsystemd-dev', 'libudev-dev', 'libdbus-1-dev', 'libglib2.0-dev', 'dbus', 'udev'];

describe.each(['accelerated', 'native-userland'] as const satisfies readonly SandboxMode[])(
  '%s mode',
  (mode) => {
    let box: ChrootSandbox;

    beforeAll(async () => {
      await provisionedImages();
      box = await createSandbox({ mode });
      await box.writeFile('/build/hello.c', HELLO_C);
      await box.writeFile('/build/libs.c', LIBS_C);
    }, PROVISION_TIMEOUT_MS);

    afterAll(async () => {
      await box?.destroy();
    });

    it('is merged-/usr, and the x86_64 cross compiler still builds a riscv64 program that runs', async () => {
      const result = await box.run(['sh', '-c', LAYOUT_AND_HELLO], { timeoutMs: 120_000 });
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines).toContain('link usr/lib64');
      expect(lines).toContain('resolved /usr/lib64');
      expect(lines).toContain('loader /native/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2');
      expect(lines).toContain('hello riscv64');
      expect(lines).toContain('machine 243');
      expect(lines.find((l) => l.startsWith('gcc '))).toMatch(
        /^gcc \/native\/usr\/bin\/riscv64-linux-gnu-gcc-/,
      );
      const shell = lines.find((l) => l.startsWith('sh '));
      if (mode === 'native-userland') expect(shell).toMatch(/^sh \/native\/usr\/bin\//);
      else expect(shell).toBe('sh /usr/bin/dash');
    }, 180_000);

    it('installs -dev packages that pull systemd, udev and D-Bus, and links a program against them', async () => {
      const install = await box.installPackages(PACKAGES, { timeoutMs: 1_500_000 });
      // the refusal is written to stdout, the error that follows to stderr
      expect(`${install.stdout}${install.stderr}`).not.toContain('not have a merged /usr');
      expect(install.exitCode, install.stderr.slice(-2000)).toBe(0);
      const status = await box.run([
        'sh',
        '-c',
        'for p in systemd udev dbus; do echo "$p $(dpkg-query -s $p | sed -n "s/^Status: //p")"; done',
      ]);
      expect(status.stdout.trim().split('\n').sort()).toEqual([
        'dbus install ok installed',
        'systemd install ok installed',
        'udev install ok installed',
      ]);
      const build = await box.run(
        [
          'sh',
          '-c',
          'set -e; gcc -O2 libs.c -o libs $(pkg-config --cflags --libs glib-2.0 dbus-1 libudev libsystemd); ./libs',
        ],
        { timeoutMs: 300_000 },
      );
      expect(build.stderr).toBe('');
      expect(build.stdout.trim()).toMatch(/^glib 2\.\d+ dbus 1\.\d+ udev yes sd 0$/);
    }, 1_800_000);
  },
);
