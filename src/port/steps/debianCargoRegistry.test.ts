import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Dependency } from '../../analysis/dependencies/Dependency.ts';
import { debianCargoRegistry } from './debianCargoRegistry.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function crate(
  name: string,
  facts: Partial<NonNullable<Dependency['crate']>>,
  packages: string[],
  file = 'Cargo.toml',
): Dependency {
  const scope = facts.scope ?? 'normal';
  return {
    kind: 'crate',
    name,
    file,
    line: 1,
    required: scope !== 'lock',
    crate: { requirement: '1', scope, ...facts },
    debianPackages: packages,
    resolvedBy: packages.length ? 'contents' : null,
  };
}

/** Runs the prepare commands with /bin/sh, HOME and RVPORT_SRC in a scratch folder. */
function runPrepare(commands: string[], files: Record<string, string>) {
  const base = mkdtempSync(join(tmpdir(), 'rvport-cargo-prepare-'));
  dirs.push(base);
  const src = join(base, 'src');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(src, path, '..'), { recursive: true });
    writeFileSync(join(src, path), text);
  }
  for (const command of commands)
    execFileSync('/bin/sh', ['-c', command], {
      cwd: base,
      env: { PATH: '/usr/bin:/bin', HOME: join(base, 'home'), RVPORT_SRC: src },
    });
  return { base, src };
}

describe('debianCargoRegistry', () => {
  it("writes Debian's source replacement into $CARGO_HOME, not the tree, and keeps a lock Debian fully packages", () => {
    const plan = debianCargoRegistry([
      crate('fnv', { locked: '1.0.7', debianVersion: '1.0.7' }, ['librust-fnv-dev']),
      crate(
        'itoa',
        { scope: 'lock', locked: '1.0.14', debianVersion: '1.0.14' },
        ['librust-itoa-dev'],
        'Cargo.lock',
      ),
    ]);
    expect(plan?.lock).toEqual({ file: 'Cargo.lock', kept: true, notPackaged: [] });
    // the lock's transitive crates are installed too, so every pinned version is there
    expect(plan?.packages).toEqual(['librust-fnv-dev', 'librust-itoa-dev']);
    const { base, src } = runPrepare(plan?.prepare ?? [], { 'Cargo.lock': 'version = 3\n' });
    expect(readFileSync(join(base, 'home', '.cargo', 'config.toml'), 'utf8')).toBe(
      '[source.crates-io]\nreplace-with = "dh-cargo-registry"\n\n[source.dh-cargo-registry]\ndirectory = "/usr/share/cargo/registry"\n',
    );
    expect(existsSync(join(src, '.cargo'))).toBe(false);
    expect(existsSync(join(src, 'Cargo.lock'))).toBe(true);
  });

  it('moves aside a lock that pins versions Debian does not have, naming them', () => {
    const plan = debianCargoRegistry([
      crate('fnv', { locked: '1.0.6', debianVersion: '1.0.7' }, ['librust-fnv-dev'], 'sub/Cargo.toml'),
      crate('quote', { scope: 'lock', locked: '1.0.38', debianVersion: null }, [], 'sub/Cargo.lock'),
    ]);
    expect(plan?.lock).toEqual({
      file: 'sub/Cargo.lock',
      kept: false,
      notPackaged: ['fnv 1.0.6', 'quote 1.0.38'],
    });
    expect(plan?.packages).toEqual([]);
    const { src } = runPrepare(plan?.prepare ?? [], { 'sub/Cargo.lock': 'pinned\n' });
    expect(existsSync(join(src, 'sub', 'Cargo.lock'))).toBe(false);
    expect(readFileSync(join(src, 'sub', 'Cargo.lock.upstream'), 'utf8')).toBe('pinned\n');
  });

  it('quotes a hostile lock path: the shell runs nothing it names', () => {
    const hostile = "$(touch pwned)'`touch pwned2`/Cargo.lock";
    const plan = debianCargoRegistry([
      crate('fnv', { locked: '1.0.6', debianVersion: '1.0.7' }, ['librust-fnv-dev']),
      crate('fnv', { scope: 'lock', locked: '1.0.6', debianVersion: '1.0.7' }, ['librust-fnv-dev'], hostile),
    ]);
    const { base, src } = runPrepare(plan?.prepare ?? [], { [hostile]: 'pinned\n' });
    expect(existsSync(join(base, 'pwned'))).toBe(false);
    expect(existsSync(join(base, 'pwned2'))).toBe(false);
    expect(existsSync(join(src, `${hostile}.upstream`))).toBe(true);
  });

  it('is nothing when no crate resolved to a package', () => {
    expect(debianCargoRegistry([crate('nowhere', { debianVersion: null }, [])])).toBeNull();
    expect(debianCargoRegistry([])).toBeNull();
  });
});
