import { describe, expect, it } from 'vitest';
import { ContentsIndex } from './ContentsIndex.ts';
import { cargoDependencies } from './cargoDependencies.ts';
import { cargoLockDependencies } from './cargoLockDependencies.ts';
import { debianCrates } from './resolveCrates.ts';
import { resolveDependencies } from './resolveDependencies.ts';

/** A slice of the riscv64 Contents index as rvport caches it (two crates in two versions). */
const index = ContentsIndex.fromText(
  [
    'usr/include/zlib.h\tzlib1g-dev',
    'usr/share/cargo/registry/fnv-1.0.7/Cargo.toml\tlibrust-fnv-dev',
    'usr/share/cargo/registry/serde_json-1.0.139/Cargo.toml\tlibrust-serde-json-dev',
    'usr/share/cargo/registry/syn-1.0.109/Cargo.toml\tlibrust-syn-1-dev',
    'usr/share/cargo/registry/syn-2.0.98/Cargo.toml\tlibrust-syn-dev',
    'usr/share/cargo/registry/md-5-0.10.6/Cargo.toml\tlibrust-md-5-dev',
    'usr/share/doc/unrelated/README\tunrelated',
  ].join('\n'),
);
const file = (path: string, text: string) => ({ path, text, lines: text.split('\n') });

function resolve(manifest: string, lock?: string) {
  const raw = [
    ...cargoDependencies.extract(file('Cargo.toml', manifest)),
    ...(lock ? cargoLockDependencies.extract(file('Cargo.lock', lock)) : []),
  ];
  return resolveDependencies(raw, index).map((d) => ({
    name: d.name,
    required: d.required,
    packages: d.debianPackages,
    ...d.crate,
  }));
}

const locked = (name: string, version: string) =>
  `[[package]]\nname = "${name}"\nversion = "${version}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n`;

describe('resolving crates to Debian packages', () => {
  it("lists Debian's registry from the Contents index, names with dashes and versions apart", () => {
    const crates = debianCrates(index);
    expect(crates.get('md-5')).toEqual([{ version: '0.10.6', packages: ['librust-md-5-dev'] }]);
    expect(crates.get('syn')?.map((v) => v.version)).toEqual(['2.0.98', '1.0.109']);
    expect(crates.get('serde-json')?.[0]?.packages).toEqual(['librust-serde-json-dev']);
    expect(debianCrates(null).size).toBe(0);
  });

  it('picks the version that satisfies the requirement when Debian has several, else the newest', () => {
    const deps = resolve(
      '[dependencies]\nsyn = "1.0"\nserde_json = "1"\nmd-5 = "0.10"\n\n[build-dependencies]\nfnv = "2"\nnowhere = "1"\n',
    );
    expect(deps).toEqual([
      expect.objectContaining({
        name: 'syn',
        packages: ['librust-syn-1-dev'],
        debianVersion: '1.0.109',
        satisfies: true,
      }),
      expect.objectContaining({ name: 'serde_json', packages: ['librust-serde-json-dev'], satisfies: true }),
      expect.objectContaining({ name: 'md-5', packages: ['librust-md-5-dev'], debianVersion: '0.10.6' }),
      // Debian has only 1.0.7: named, and marked as not what Cargo.toml asks for
      expect.objectContaining({
        name: 'fnv',
        packages: ['librust-fnv-dev'],
        debianVersion: '1.0.7',
        satisfies: false,
      }),
      expect.objectContaining({ name: 'nowhere', packages: [], debianVersion: null, satisfies: false }),
    ]);
  });

  it("records the lock's pin beside Debian's version, and keeps the lock's transitive crates unrequired", () => {
    const deps = resolve(
      '[dependencies]\nfnv = "1"\nsyn = "2"\n',
      locked('fnv', '1.0.6') + locked('syn', '2.0.98') + locked('syn', '1.0.109') + locked('quote', '1.0.38'),
    );
    expect(deps).toEqual([
      expect.objectContaining({ name: 'fnv', required: true, locked: '1.0.6', debianVersion: '1.0.7' }),
      expect.objectContaining({ name: 'syn', required: true, locked: '2.0.98', debianVersion: '2.0.98' }),
      expect.objectContaining({
        name: 'syn',
        required: false,
        scope: 'lock',
        locked: '1.0.109',
        packages: ['librust-syn-1-dev'],
      }),
      expect.objectContaining({ name: 'quote', required: false, scope: 'lock', debianVersion: null }),
    ]);
  });

  it("takes a member's `workspace = true` requirement from the workspace table", () => {
    const deps = resolve('[workspace.dependencies]\nsyn = "1"\n\n[dependencies]\nsyn.workspace = true\n');
    expect(deps.find((d) => d.required)).toMatchObject({
      name: 'syn',
      requirement: '1',
      debianVersion: '1.0.109',
    });
  });
});
