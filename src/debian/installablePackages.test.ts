import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadInstallablePackages, uninstallable } from './installablePackages.ts';

const PACKAGES = `Package: zlib1g-dev
Source: zlib
Version: 1:1.3.dfsg+really1.3.1-1+b1
Architecture: riscv64
Provides: libz-dev, libz1-dev (= 1:1.3.1)
Description: compression library - development

Package: autoconf
Architecture: all
Description: automatic configure script builder
 Package: not-a-field (a continuation line)
`;

describe('installable packages', () => {
  it('are the packages and what they provide, from every Packages list of the image', async () => {
    const lists = mkdtempSync(join(tmpdir(), 'rvport-lists-'));
    writeFileSync(join(lists, 'mirror_debian_dists_trixie_main_binary-riscv64_Packages'), PACKAGES);
    writeFileSync(join(lists, 'mirror_debian_dists_trixie_InRelease'), 'Package: nope\n');
    const names = await loadInstallablePackages(lists);
    expect([...(names ?? [])].sort()).toEqual(['autoconf', 'libz-dev', 'libz1-dev', 'zlib1g-dev']);
    expect(uninstallable(['zlib1g-dev', 'libz-dev', 'autoconf:all', 'libzlib-dev'], names)).toEqual([
      'libzlib-dev',
    ]);
  });

  it('without lists nothing is known and nothing refused', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'rvport-lists-'));
    mkdirSync(join(empty, 'partial'));
    expect(await loadInstallablePackages(empty)).toBeNull();
    expect(await loadInstallablePackages(join(empty, 'missing'))).toBeNull();
    expect(uninstallable(['anything'], null)).toEqual([]);
  });
});
