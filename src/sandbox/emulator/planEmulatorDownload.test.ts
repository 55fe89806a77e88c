import { describe, expect, it } from 'vitest';
import type { IndexedPackage, PackageIndex } from '../../debian/readPackageIndex.ts';
import { planEmulatorDownload } from './planEmulatorDownload.ts';

const MIRROR = 'http://archive.example/debian';
const sha = 'ab'.repeat(32);

function indexOf(packages: IndexedPackage[]): PackageIndex {
  const byName = new Map<string, IndexedPackage[]>();
  for (const p of packages) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
  return { byKey: new Map(), byName, providers: new Map() };
}

const qemu = (over: Partial<IndexedPackage> = {}): IndexedPackage => ({
  name: 'qemu-user',
  version: '1:10.0.13+ds-0+deb13u1',
  architecture: 'amd64',
  filename: 'pool/main/q/qemu/qemu-user_10.0.13+ds-0+deb13u1_amd64.deb',
  size: 60_000_000,
  sha256: sha,
  depends: '',
  provides: [],
  ...over,
});

describe('planEmulatorDownload', () => {
  it("takes the index's amd64 qemu-user, with the index's size and hash", () => {
    expect(planEmulatorDownload(indexOf([qemu()]), MIRROR, [MIRROR])).toEqual({
      version: '1:10.0.13+ds-0+deb13u1',
      download: {
        uri: `${MIRROR}/pool/main/q/qemu/qemu-user_10.0.13+ds-0+deb13u1_amd64.deb`,
        fileName: 'qemu-user_10.0.13+ds-0+deb13u1_amd64.deb',
        size: 60_000_000,
        hash: { algorithm: 'sha256', hex: sha },
      },
    });
  });

  it('refuses an index without it, or a file outside the pool of the allowed archives', () => {
    expect(planEmulatorDownload(indexOf([qemu({ architecture: 'arm64' })]), MIRROR, [MIRROR])).toEqual({
      refused: "the tools tree's package index has no amd64 qemu-user",
    });
    expect(
      planEmulatorDownload(indexOf([qemu({ filename: 'pool/../../etc/qemu.deb' })]), MIRROR, [MIRROR]),
    ).toMatchObject({ refused: expect.stringContaining("no download in the archive's pool") });
    expect(planEmulatorDownload(indexOf([qemu()]), MIRROR, ['http://other.example/debian'])).toMatchObject({
      refused: expect.stringContaining('qemu-user'),
    });
  });
});
