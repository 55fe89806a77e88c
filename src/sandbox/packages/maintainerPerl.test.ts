import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runProcess } from '../../process/runProcess.ts';
import { EM_RISCV, EM_X86_64 } from '../provision/userlandSwap.ts';
import { type SandboxPaths, sandboxPaths } from '../sandboxPaths.ts';
import { DPKG_BACKEND_DIR } from './dpkgBackend.ts';
import {
  DEBCONF_FRONTEND,
  LATER_PERL_PROGRAMS,
  laterPerlHelperScript,
  perlHelperScript,
  placeMaintainerPerl,
} from './maintainerPerl.ts';

let home: string;
let paths: SandboxPaths;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'rvport-maintainer-perl-'));
  paths = sandboxPaths(home);
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** Writes `files` (path → content) into an image tree, with the packages' status and file lists. */
async function tree(
  key: string,
  packages: Record<string, { version: string; files: Record<string, string | Buffer> }>,
): Promise<string> {
  const root = join(paths.image(key), 'tree');
  await mkdir(join(root, 'var/lib/dpkg/info'), { recursive: true });
  let status = '';
  for (const [name, { version, files }] of Object.entries(packages)) {
    status += `Package: ${name}\nStatus: install ok installed\nArchitecture: all\nVersion: ${version}\n\n`;
    await writeFile(join(root, `var/lib/dpkg/info/${name}.list`), `${Object.keys(files).join('\n')}\n`);
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), content, { mode: 0o755 });
    }
  }
  await writeFile(join(root, 'var/lib/dpkg/status'), status);
  return root;
}

const elf = (machine: number) => {
  const header = Buffer.alloc(64);
  header.writeUInt32BE(0x7f454c46, 0);
  header.writeUInt16LE(machine, 18);
  return header;
};

const HELPERS = {
  '/usr/bin/deb-systemd-helper': '#!/usr/bin/perl\nprint "helper\\n";\n',
  '/usr/sbin/update-rc.d': '#! /usr/bin/perl\nprint "rc\\n";\n',
  '/usr/sbin/invoke-rc.d': '#!/bin/sh\necho shell\n',
};

async function rootfs(perl = '5.40.1-6') {
  await tree('rootfs', {
    'perl-base': { version: perl, files: { '/usr/bin/perl': elf(EM_RISCV) } },
    perl: { version: perl, files: {} },
    'init-system-helpers': { version: '1.69', files: HELPERS },
    debconf: { version: '1.5.91', files: { [DEBCONF_FRONTEND]: '#!/usr/bin/perl -w\nuse strict;\n' } },
  });
}

const tools = (perl = '5.40.1-6', machine = EM_X86_64) =>
  tree('tools', {
    'perl-base': { version: perl, files: { '/usr/bin/perl': elf(machine) } },
    perl: { version: perl, files: {} },
  });

describe('placeMaintainerPerl', () => {
  it('puts a script for each perl helper first in dpkg’s PATH and debconf’s frontend under the x86_64 perl', async () => {
    await rootfs();
    await tools();
    const layer = join(home, 'layer');
    expect(await placeMaintainerPerl(paths, 'rootfs', 'tools', layer)).toEqual({
      helpers: [
        '/usr/bin/deb-systemd-helper',
        '/usr/sbin/update-rc.d',
        ...LATER_PERL_PROGRAMS,
        DEBCONF_FRONTEND,
      ],
    });
    expect(await readFile(join(layer, DPKG_BACKEND_DIR, 'deb-systemd-helper'), 'utf8')).toBe(
      '#!/bin/sh\nexec /native/usr/bin/perl /usr/bin/deb-systemd-helper "$@"\n',
    );
    expect(await readFile(join(layer, DPKG_BACKEND_DIR, 'update-rc.d'), 'utf8')).toBe(
      perlHelperScript('/usr/sbin/update-rc.d'),
    );
    // the shell script stays as it is, and dpkg's PATH setting is there
    await expect(lstat(join(layer, DPKG_BACKEND_DIR, 'invoke-rc.d'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(layer, 'etc/apt/apt.conf.d/99rvport-dpkg-backend'), 'utf8')).toContain(
      `DPkg::Path "${DPKG_BACKEND_DIR}:`,
    );
    // the frontend keeps its switches and its text; a copy, not a link (confmodule refuses links)
    const frontend = join(layer, DEBCONF_FRONTEND);
    expect(await readFile(frontend, 'utf8')).toBe('#! /native/usr/bin/perl -w\nuse strict;\n');
    expect((await lstat(frontend)).isFile()).toBe(true);
  });

  it('places nothing without an x86_64 perl of the rootfs’s version', async () => {
    await rootfs();
    await tools('5.40.0-1');
    const layer = join(home, 'layer');
    expect(await placeMaintainerPerl(paths, 'rootfs', 'tools', layer)).toEqual({
      refused:
        'needs the same perl in both trees (perl-base rootfs 5.40.1-6, tools tree 5.40.0-1; perl rootfs 5.40.1-6, tools tree 5.40.0-1)',
    });
    await expect(lstat(layer)).rejects.toThrow(/ENOENT/);
    await tools('5.40.1-6', EM_RISCV);
    expect(await placeMaintainerPerl(paths, 'rootfs', 'tools', layer)).toEqual({
      refused: 'needs the same perl in both trees (no x86_64 /usr/bin/perl in the tools tree)',
    });
  });

  it('takes no frontend that is a link', async () => {
    await rootfs();
    await tools();
    const root = join(paths.image('rootfs'), 'tree');
    await rm(join(root, DEBCONF_FRONTEND));
    await symlink('/usr/bin/deb-systemd-helper', join(root, DEBCONF_FRONTEND));
    const placed = await placeMaintainerPerl(paths, 'rootfs', 'tools', join(home, 'layer'));
    expect(placed).toEqual({
      helpers: ['/usr/bin/deb-systemd-helper', '/usr/sbin/update-rc.d', ...LATER_PERL_PROGRAMS],
    });
  });
});

describe('perlHelperScript', () => {
  it('refuses a path a shell would read otherwise', () => {
    expect(() => perlHelperScript('/usr/bin/x; rm -rf /')).toThrow(/unexpected characters/);
  });
});

describe('the stand-in of a perl program installed later', () => {
  it('runs a perl script under the x86_64 perl, and anything else as it is', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvport-later-perl-'));
    try {
      const run = async (text: string) => {
        const program = join(dir, 'update-catalog');
        await writeFile(program, text, { mode: 0o755 });
        const standIn = join(dir, 'stand-in');
        await writeFile(standIn, laterPerlHelperScript(program), { mode: 0o755 });
        return runProcess({ command: ['/bin/sh', standIn, '--add', 'x y'] });
      };
      // the host has no /native: the perl script's call names the x86_64 perl it would take
      const perl = await run('#!/usr/bin/perl\nprint "riscv64 perl";\n');
      expect(perl.exitCode).not.toBe(0);
      expect(perl.stderr).toContain('/native/usr/bin/perl');
      const shell = await run('#!/bin/sh\necho "as it is: $1 $2"\n');
      expect(shell.exitCode, shell.stderr).toBe(0);
      expect(shell.stdout).toBe('as it is: --add x y\n');
      expect(() => laterPerlHelperScript('/usr/sbin/x; rm -rf /')).toThrow(/unexpected characters/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
