import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChrootSandbox } from '../../src/sandbox/chroot/ChrootSandbox.ts';
import { createInstance } from '../../src/sandbox/chroot/instanceStore.ts';
import { createSandbox } from '../../src/sandbox/createSandbox.ts';
import { findImages } from '../../src/sandbox/findImages.ts';
import {
  APT_LAYER_RECORD,
  type AptLayer,
  aptLayerKey,
  ensureAptLayer,
  NO_PRECONFIGURE_CONF,
} from '../../src/sandbox/packages/aptLayer.ts';
import { DPKG_BACKEND_DIR } from '../../src/sandbox/packages/dpkgBackend.ts';
import { DEBCONF_FRONTEND } from '../../src/sandbox/packages/maintainerPerl.ts';
import { nativeAptFrontend } from '../../src/sandbox/packages/nativeApt.ts';
import { APT_FRONTEND_DIR, NATIVE_APT_ROOT } from '../../src/sandbox/packages/nativeAptPaths.ts';
import { sandboxPaths } from '../../src/sandbox/sandboxPaths.ts';
import { readSubordinateIds } from '../../src/sandbox/userns/subordinateIds.ts';
import { giveToSandboxRoot } from '../../src/sandbox/userns/treeOwner.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from './provisionedImages.ts';

const paths = sandboxPaths();
let box: ChrootSandbox;

beforeAll(async () => {
  await provisionedImages();
  box = await createSandbox({ mode: 'accelerated' });
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  await box?.destroy();
});

const instanceRecord = async (b: ChrootSandbox) =>
  JSON.parse(await readFile(join(paths.instance(b.id), 'instance.json'), 'utf8')) as { lowerKeys: string[] };
/** The record of the apt layer an instance stands on (its topmost layer). */
const aptLayerOf = async (b: ChrootSandbox) => {
  const { lowerKeys } = await instanceRecord(b);
  return JSON.parse(
    await readFile(join(paths.image(lowerKeys[0] ?? ''), APT_LAYER_RECORD), 'utf8'),
  ) as AptLayer;
};

describe('the apt layer', () => {
  it(
    'gives every instance caches that apt takes as valid, and no preconfigure pass',
    async () => {
      const { lowerKeys } = await instanceRecord(box);
      expect(lowerKeys[0]).toMatch(/^apt-[0-9a-f]{16}$/);
      const layer = await aptLayerOf(box);
      expect(layer.cachesMissing).toBeUndefined();
      expect(layer.lowerKeys).toEqual(lowerKeys.slice(1));
      const check = await box.run(['apt-get', '-o', 'Debug::pkgCacheGen=1', 'check'], { timeoutMs: 300_000 });
      expect(check.exitCode, check.stderr).toBe(0);
      expect(`${check.stdout}${check.stderr}`).toContain(
        'pkgcache.bin is valid - no need to build any cache',
      );
      const config = await box.run(['apt-config', 'dump'], { timeoutMs: 120_000 });
      expect(config.stdout).not.toContain('dpkg-preconfigure');
      // an install still works over it, and apt then remakes the caches for the new status
      const installed = await box.installPackages(['libidn12'], { timeoutMs: 15 * 60_000 });
      expect(installed.exitCode, installed.stderr.slice(-2000)).toBe(0);
      // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's format
      const listed = await box.run(['dpkg-query', '-W', '-f', '${Status}', 'libidn12'], {
        timeoutMs: 120_000,
      });
      expect(listed.stdout).toBe('install ok installed');
      // unpacked by the x86_64 extractor, the files are the package's own (dpkg checks each
      // file against the package's md5sums and prints nothing when all match)
      expect(layer.dpkgBackend).toEqual({ link: '/native/usr/bin/dpkg-deb', version: expect.any(String) });
      const verified = await box.run(['dpkg', '--verify', 'libidn12'], { timeoutMs: 120_000 });
      expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
      expect(verified.stdout).toBe('');
      // a build's commands never get it: only an install puts its folder in the PATH
      const found = await box.run(['sh', '-c', 'command -v dpkg-deb'], { timeoutMs: 120_000 });
      expect(found.stdout.trim()).toBe('/usr/bin/dpkg-deb');
      // the apt installs resolve with: the rootfs's apt version, an x86_64 program (ELF e_machine
      // 0x3e at byte 18), and not the apt-get of a build's commands
      expect(layer.nativeApt).toEqual({
        version: expect.stringMatching(/^\d/),
        architecture: 'riscv64',
        packages: expect.arrayContaining([expect.stringMatching(/^apt=/)]),
      });
      const machine = await box.run(
        ['od', '-An', '-tx1', '-j18', '-N2', `${NATIVE_APT_ROOT}/usr/bin/apt-get`],
        {
          timeoutMs: 120_000,
        },
      );
      expect(machine.stdout.trim()).toBe('3e 00');
      const aptGet = await box.run(['sh', '-c', 'command -v apt-get'], { timeoutMs: 120_000 });
      expect(aptGet.stdout.trim()).toBe('/usr/bin/apt-get');
    },
    20 * 60_000,
  );

  it(
    'resolves an install with the x86_64 apt as the riscv64 apt does',
    async () => {
      const args = [
        'install',
        '-q',
        '-y',
        '--no-install-recommends',
        '--print-uris',
        'texinfo',
        'libidn-dev',
      ];
      const native = await box.run([`${APT_FRONTEND_DIR}/apt-get`, ...args], { timeoutMs: 300_000 });
      const riscv = await box.run(['/usr/bin/apt-get', ...args], { timeoutMs: 300_000 });
      expect(native.exitCode, native.stderr).toBe(0);
      expect(native.stdout).toContain('_riscv64.deb');
      expect(native.stdout).toBe(riscv.stdout);
    },
    10 * 60_000,
  );

  it(
    'hands dpkg the extractor of the install’s PATH and runs the frontend’s apt (logging stand-ins see their calls)',
    async () => {
      const { lowerKeys } = await instanceRecord(box);
      const key = `test-logging-backend-${process.pid}`;
      const bin = join(paths.image(key), 'tree', DPKG_BACKEND_DIR);
      await mkdir(bin, { recursive: true });
      await writeFile(
        join(bin, 'dpkg-deb'),
        '#!/bin/sh\necho "$@" >> /var/log/rvport-backend.log\nexec /native/usr/bin/dpkg-deb "$@"\n',
      );
      await chmod(join(bin, 'dpkg-deb'), 0o755);
      const frontend = join(paths.image(key), 'tree', APT_FRONTEND_DIR);
      await mkdir(frontend, { recursive: true });
      await writeFile(
        join(frontend, 'apt-get'),
        nativeAptFrontend('riscv64').replace('exec ', 'echo "$@" >> /var/log/rvport-frontend.log\nexec '),
      );
      await chmod(join(frontend, 'apt-get'), 0o755);
      await giveToSandboxRoot(readSubordinateIds(), [join(paths.image(key), 'tree')]);
      const images = await findImages();
      const instance = await createInstance(paths, {
        mode: 'accelerated',
        lowerKeys: [key, ...lowerKeys],
        ...(images.tools ? { toolsKey: images.tools.key } : {}),
        keep: false,
      });
      try {
        const installed = await instance.installPackages(['libidn12'], { timeoutMs: 15 * 60_000 });
        expect(installed.exitCode, installed.stderr.slice(-2000)).toBe(0);
        const log = await instance.run(['cat', '/var/log/rvport-backend.log'], { timeoutMs: 120_000 });
        expect(log.stdout).toMatch(/--fsys-tarfile \S*libidn12/);
        // both apt calls of the install: the list of downloads, then the install from them
        const calls = await instance.run(['cat', '/var/log/rvport-frontend.log'], { timeoutMs: 120_000 });
        expect(calls.stdout).toMatch(/--print-uris libidn12\n[^\n]*--no-download libidn12\n$/);
      } finally {
        await instance.destroy();
        await rm(paths.image(key), { recursive: true, force: true });
      }
    },
    20 * 60_000,
  );

  it(
    'is made once per stack: a second instance reuses it without running apt',
    async () => {
      const { lowerKeys } = await instanceRecord(box);
      const before = await readdir(paths.instances);
      const second = await createSandbox({ mode: 'accelerated' });
      try {
        expect((await instanceRecord(second)).lowerKeys).toEqual(lowerKeys);
        // of this process's instances only the new one appeared: no throwaway instance ran apt
        // (other processes' instances may come and go meanwhile)
        const ours: string[] = [];
        for (const name of (await readdir(paths.instances)).filter((n) => !before.includes(n))) {
          const record = await readFile(join(paths.instance(name), 'instance.json'), 'utf8').catch(
            () => '{}',
          );
          if ((JSON.parse(record) as { ownerPid?: number }).ownerPid === process.pid) ours.push(name);
        }
        expect(ours).toEqual([second.id]);
      } finally {
        await second.destroy();
      }
    },
    5 * 60_000,
  );

  it(
    'records why it has no caches when apt cannot make them, and instances still work',
    async () => {
      const images = await findImages();
      const rootfs = images.rootfs;
      if (!rootfs) throw new Error('no rootfs');
      // a layer of our own whose apt-cache fails, over the real rootfs
      const brokenKey = `test-broken-apt-${process.pid}`;
      const tree = join(paths.image(brokenKey), 'tree');
      await mkdir(join(tree, 'usr/local/bin'), { recursive: true });
      await writeFile(join(tree, 'usr/local/bin/apt-cache'), '#!/bin/sh\necho broken >&2\nexit 3\n');
      await chmod(join(tree, 'usr/local/bin/apt-cache'), 0o755);
      await giveToSandboxRoot(readSubordinateIds(), [tree]);
      const stack = { mode: 'emulated' as const, lowerKeys: [brokenKey, rootfs.key] };
      try {
        const layer = await ensureAptLayer(paths, stack, readSubordinateIds());
        expect(layer.key).toBe(aptLayerKey(stack));
        expect(layer.cachesMissing).toMatch(/apt-cache gencaches exited 3: broken/);
        expect(layer.nativeApt).toEqual({ refused: 'no x86_64 tools tree in this mode' });
        expect(layer.maintainerPerl).toEqual({ refused: 'no x86_64 tools tree in this mode' });
        const files = await readdir(join(paths.image(layer.key), 'tree/var/cache/apt'));
        expect(files.filter((f) => f.endsWith('.bin'))).toEqual([]);
        const instance = await createInstance(paths, {
          ...stack,
          lowerKeys: [layer.key, ...stack.lowerKeys],
          keep: false,
        });
        try {
          const conf = await instance.run(['cat', NO_PRECONFIGURE_CONF], { timeoutMs: 120_000 });
          expect(conf.stdout).toContain('#clear DPkg::Pre-Install-Pkgs;');
        } finally {
          await instance.destroy();
        }
      } finally {
        await rm(paths.image(brokenKey), { recursive: true, force: true });
        await rm(paths.image(aptLayerKey(stack)), { recursive: true, force: true });
      }
    },
    10 * 60_000,
  );
});

describe('the apt layer of native-userland mode', () => {
  it(
    'is made anew over a stack it has not seen: the x86_64 apt unpacked, checked and placed',
    async () => {
      const native = await createSandbox({ mode: 'native-userland' });
      const { lowerKeys } = await instanceRecord(native);
      await native.destroy();
      const images = await findImages();
      // an empty layer of our own on the stack gives it a key no layer was made for yet
      const emptyKey = `test-empty-${process.pid}`;
      await mkdir(join(paths.image(emptyKey), 'tree'), { recursive: true });
      await giveToSandboxRoot(readSubordinateIds(), [join(paths.image(emptyKey), 'tree')]);
      const stack = {
        mode: 'native-userland' as const,
        lowerKeys: [emptyKey, ...lowerKeys.slice(1)],
        ...(images.nativeTools ? { toolsKey: images.nativeTools.key } : {}),
        ...(images.rootfs?.mirror ? { mirror: images.rootfs.mirror } : {}),
      };
      try {
        const layer = await ensureAptLayer(paths, stack, readSubordinateIds());
        expect(layer.nativeApt).toEqual({
          version: expect.stringMatching(/^\d/),
          architecture: 'riscv64',
          packages: expect.arrayContaining([
            expect.stringMatching(/^apt=/),
            expect.stringMatching(/^libapt-pkg/),
          ]),
        });
        const tree = join(paths.image(layer.key), 'tree');
        expect(await readFile(join(tree, APT_FRONTEND_DIR, 'apt-get'), 'utf8')).toBe(
          nativeAptFrontend('riscv64'),
        );
        const elf = await readFile(join(tree, NATIVE_APT_ROOT, 'usr/bin/apt-get'));
        expect(elf.readUInt16LE(18)).toBe(0x3e);
        // only what apt-get needs: no documentation
        await expect(readdir(join(tree, NATIVE_APT_ROOT, 'usr/share'))).rejects.toThrow(/ENOENT/);
      } finally {
        await rm(paths.image(emptyKey), { recursive: true, force: true });
        await rm(paths.image(aptLayerKey(stack)), { recursive: true, force: true });
      }
    },
    15 * 60_000,
  );

  it(
    'runs the maintainer scripts’ perl helpers under the x86_64 perl, and they do their work',
    async () => {
      const native = await createSandbox({ mode: 'native-userland' });
      try {
        const layer = await aptLayerOf(native);
        expect(layer.maintainerPerl).toEqual({
          helpers: expect.arrayContaining([
            '/usr/bin/deb-systemd-helper',
            '/usr/sbin/update-rc.d',
            DEBCONF_FRONTEND,
          ]),
        });
        expect(layer.nativeApt).toHaveProperty('version');
        const frontend = await native.run(['head', '-n', '1', DEBCONF_FRONTEND], { timeoutMs: 120_000 });
        expect(frontend.stdout).toBe('#! /native/usr/bin/perl\n');
        // a service's postinst runs deb-systemd-helper six times, and keyboard-configuration asks
        // debconf its questions: both leave their state as under the riscv64 perl
        const installed = await native.installPackages(['console-setup-linux'], { timeoutMs: 20 * 60_000 });
        expect(installed.exitCode, installed.stderr.slice(-2000)).toBe(0);
        const state = await native.run(
          [
            'sh',
            '-c',
            'ls /var/lib/systemd/deb-systemd-helper-enabled/; grep -c "^Name: keyboard-configuration/" /var/cache/debconf/config.dat',
          ],
          { timeoutMs: 120_000 },
        );
        expect(state.stdout).toContain('console-setup.service.dsh-also');
        expect(Number(state.stdout.trim().split('\n').at(-1))).toBeGreaterThan(5);
      } finally {
        await native.destroy();
      }
    },
    25 * 60_000,
  );
});

describe('aptLayerKey', () => {
  it('names the whole stack', () => {
    const a = aptLayerKey({ mode: 'accelerated', lowerKeys: ['accel-1', 'rootfs-1'], toolsKey: 'tools-1' });
    expect(a).toBe(
      aptLayerKey({ mode: 'accelerated', lowerKeys: ['accel-1', 'rootfs-1'], toolsKey: 'tools-1' }),
    );
    expect(a).not.toBe(
      aptLayerKey({ mode: 'accelerated', lowerKeys: ['accel-2', 'rootfs-1'], toolsKey: 'tools-1' }),
    );
    expect(a).not.toBe(
      aptLayerKey({ mode: 'accelerated', lowerKeys: ['accel-1', 'rootfs-1'], toolsKey: 'tools-2' }),
    );
    expect(a).not.toBe(
      aptLayerKey({ mode: 'native-userland', lowerKeys: ['accel-1', 'rootfs-1'], toolsKey: 'tools-1' }),
    );
  });
});
