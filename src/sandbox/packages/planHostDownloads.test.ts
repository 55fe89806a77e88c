import { describe, expect, it } from 'vitest';
import { type IndexedPackage, indexKey, type PackageIndex } from '../../debian/readPackageIndex.ts';
import type { AptSelection } from './aptSelections.ts';
import { isPoolPath, planHostDownloads } from './planHostDownloads.ts';

const MIRROR = 'http://mirror.invalid/debian';

function entry(name: string, version: string, extra: Partial<IndexedPackage> = {}): IndexedPackage {
  return {
    name,
    version,
    architecture: 'riscv64',
    filename: `pool/main/${name[0]}/${name}/${name}_${version.replace(/^\d+:/, '')}_riscv64.deb`,
    size: 1000,
    sha256: 'c'.repeat(64),
    depends: '',
    provides: [],
    ...extra,
  };
}

function indexOf(...entries: IndexedPackage[]): PackageIndex {
  const byKey = new Map(entries.map((e) => [indexKey(e.name, e.version, e.architecture), e]));
  const byName = new Map(entries.map((e) => [e.name, [e]]));
  const providers = new Map<string, string[]>();
  for (const e of entries)
    for (const p of e.provides) providers.set(p, [...(providers.get(p) ?? []), e.name]);
  return { byKey, byName, providers };
}

const pick = (e: IndexedPackage, claimedSize = e.size): AptSelection => ({
  name: e.name,
  version: e.version,
  architecture: e.architecture,
  claimedSize,
});

const dev = entry('libfoo-dev', '1:2.0-1', {
  depends: 'libfoo2 (= 1:2.0-1) | libfoo-alt',
  provides: ['libz-dev'],
});
const lib = entry('libfoo2', '1:2.0-1');
const other = entry('bigthing', '1.0', { size: 3 * 1024 ** 3 });
const index = indexOf(dev, lib, other);

describe('planHostDownloads', () => {
  it("builds each download from the host's mirror and index, never from the sandbox's URI", () => {
    const downloads = planHostDownloads({
      selections: [pick(dev), pick(lib)],
      requested: ['libfoo-dev'],
      index,
      mirror: MIRROR,
    });
    expect(downloads).toEqual([
      {
        uri: `${MIRROR}/pool/main/l/libfoo-dev/libfoo-dev_2.0-1_riscv64.deb`,
        fileName: 'libfoo-dev_1%3a2.0-1_riscv64.deb',
        size: 1000,
        hash: { algorithm: 'sha256', hex: 'c'.repeat(64) },
      },
      expect.objectContaining({ fileName: 'libfoo2_1%3a2.0-1_riscv64.deb' }),
    ]);
  });

  it('follows virtual names and version qualifiers of the request', () => {
    expect(
      planHostDownloads({ selections: [pick(lib)], requested: ['libz-dev:riscv64'], index, mirror: MIRROR }),
    ).toHaveLength(1);
  });

  it('refuses a version the lists do not have, a package nothing requested needs, and a lying size', () => {
    const plan = (selections: AptSelection[]) =>
      planHostDownloads({ selections, requested: ['libfoo-dev'], index, mirror: MIRROR });
    expect(() => plan([{ ...pick(lib), version: '9.9' }])).toThrow(
      /libfoo2 9\.9 \(riscv64\), which the image's package lists do not have: nothing downloaded/,
    );
    expect(() => plan([pick(other)])).toThrow(
      /bigthing 1\.0 \(riscv64\), which nothing requested depends on/,
    );
    expect(() => plan([pick(lib, 99 * 1024 ** 3)])).toThrow(
      /gave libfoo2 .* bytes; the image's lists say 1000/,
    );
  });

  it('refuses above the count and size limits before anything is fetched', () => {
    const limits = { packages: 1, bytes: 1500 };
    expect(() =>
      planHostDownloads({
        selections: [pick(dev), pick(lib)],
        requested: ['libfoo-dev'],
        index,
        mirror: MIRROR,
        limits,
      }),
    ).toThrow(/2 packages to fetch; at most 1 per install/);
    expect(() =>
      planHostDownloads({
        selections: [pick(dev), pick(lib)],
        requested: ['libfoo-dev'],
        index,
        mirror: MIRROR,
        limits: { packages: 9, bytes: 1500 },
      }),
    ).toThrow(/come to 2000 bytes; at most 1500 per install/);
  });

  it('refuses an index Filename outside the pool', () => {
    const bad = entry('libbad', '1', { filename: 'pool/../../etc/passwd.deb' });
    expect(() =>
      planHostDownloads({
        selections: [pick(bad)],
        requested: ['libbad'],
        index: indexOf(bad),
        mirror: MIRROR,
      }),
    ).toThrow(/not a path in the archive's pool/);
    expect(isPoolPath('/pool/main/a/a.deb')).toBe(false);
    expect(isPoolPath('pool/main//a.deb')).toBe(false);
    expect(isPoolPath('pool/main/a/a_1_riscv64.deb')).toBe(true);
  });
});
