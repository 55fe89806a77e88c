import { describe, expect, it } from 'vitest';
import { cargoDependencies } from './cargoDependencies.ts';
import { cargoLockDependencies } from './cargoLockDependencies.ts';

const file = (path: string, text: string) => ({ path, text, lines: text.split('\n') });

describe('Cargo.toml and Cargo.lock dependencies', () => {
  it('needs every registry crate Cargo.toml names (cargo resolves dev and optional ones too), not path ones', () => {
    const text =
      '[package]\nname = "x"\n\n[dependencies]\nlibc = "0.2"\nserde = { version = "1", optional = true }\nown = { path = "own" }\n\n[dev-dependencies]\nquickcheck = "1"\n\n[dependencies.rand]\nversion = "0.8"\n\n[workspace.dependencies]\nmemchr = "2"\n';
    expect(
      cargoDependencies
        .extract(file('Cargo.toml', text))
        .map((d) => [d.kind, d.name, d.required, d.crate?.requirement, d.crate?.scope]),
    ).toEqual([
      ['crate', 'libc', true, '0.2', 'normal'],
      ['crate', 'serde', true, '1', 'normal'],
      ['crate', 'quickcheck', true, '1', 'dev'],
      ['crate', 'rand', true, '0.8', 'normal'],
      ['crate', 'memchr', false, '2', 'workspace'],
    ]);
  });

  it("keeps the lock's registry crates with their exact versions, not the workspace's own", () => {
    const lock =
      'version = 3\n\n[[package]]\nname = "x"\nversion = "0.1.0"\n\n[[package]]\nname = "fnv"\nversion = "1.0.6"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n';
    expect(cargoLockDependencies.extract(file('Cargo.lock', lock))).toEqual([
      {
        kind: 'crate',
        name: 'fnv',
        file: 'Cargo.lock',
        line: 0,
        required: false,
        crate: { requirement: '=1.0.6', scope: 'lock', locked: '1.0.6' },
      },
    ]);
  });
});
