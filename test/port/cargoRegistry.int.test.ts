import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PortRequest, runPort } from '../../src/port/run/runPort.ts';
import { RecipeCache } from '../../src/recipes/RecipeCache.ts';
import { recipeCacheDir } from '../../src/recipes/recipeCacheDir.ts';
import {
  type CargoRegistry,
  type RegistryCrate,
  startCargoRegistry,
} from '../helpers/cargoRegistryServer.ts';
import { makePortHome } from '../helpers/portHome.ts';

// A crate with a dependency, the dependency fetched host-side from a local cargo registry (a
// sparse index and crate downloads over HTTP on 127.0.0.1), checked against Cargo.lock's sha256,
// and built offline in the sandbox from a directory registry made of it. Then a registry that
// serves a tampered .crate: refused before anything reaches the sandbox.
const MINUTES = 60_000;
const CRATES_IO = 'registry+https://github.com/rust-lang/crates.io-index';
const TINYDEP: RegistryCrate = {
  name: 'tinydep',
  version: '0.1.0',
  files: {
    'Cargo.toml': '[package]\nname = "tinydep"\nversion = "0.1.0"\nedition = "2021"\n',
    'src/lib.rs': 'pub fn greeting() -> &\'static str {\n    "hello from riscv64"\n}\n',
  },
};
let home: string;
let work: string;

beforeAll(() => {
  home = makePortHome('rvport-registry-home-');
  work = mkdtempSync(join(tmpdir(), 'rvport-registry-work-'));
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

function crate(name: string, checksum: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(
    join(dir, 'Cargo.toml'),
    `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ntinydep = "0.1"\n`,
  );
  writeFileSync(join(dir, 'src', 'main.rs'), 'fn main() {\n    println!("{}", tinydep::greeting());\n}\n');
  writeFileSync(
    join(dir, 'Cargo.lock'),
    [
      'version = 3',
      '',
      '[[package]]',
      `name = "${name}"`,
      'version = "0.1.0"',
      'dependencies = [',
      ' "tinydep",',
      ']',
      '',
      '[[package]]',
      'name = "tinydep"',
      'version = "0.1.0"',
      `source = "${CRATES_IO}"`,
      `checksum = "${checksum}"`,
      '',
    ].join('\n'),
  );
  return dir;
}

function request(source: string, registry: CargoRegistry): PortRequest {
  return {
    source,
    maxAttempts: 2,
    force: true,
    optimize: false,
    package: false,
    restart: false,
    mode: 'emulated',
    out: join(work, 'out'),
    offline: true,
    keepSandbox: false,
    cargoRegistry: registry.indexUrl,
    env: { ...process.env, RVPORT_HOME: home },
  };
}

describe('a crate whose dependency comes from a cargo registry', () => {
  it(
    'fetches it, checks it against Cargo.lock, builds offline from the store, verified; the report and the cache entry name it',
    async () => {
      const registry = await startCargoRegistry([TINYDEP]);
      try {
        const checksum = registry.checksums.get('tinydep 0.1.0') as string;
        const notes: string[] = [];
        const started = Date.now();
        const result = await runPort(request(crate('hellodep', checksum), registry), {
          signal: AbortSignal.timeout(40 * MINUTES),
          progress: (e) => notes.push(JSON.stringify(e)),
        });
        const report = readFileSync(join(result.outDir, 'report.md'), 'utf8');
        console.log(`cargo registry port: ${result.kind} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
        expect(result.kind, `${result.message}\n${notes.slice(-20).join('\n')}\n${report}`).toBe('verified');
        expect(registry.requests).toContain('/api/v1/crates/tinydep/0.1.0/download');
        expect(result.state?.artifacts.find((a) => a.path.endsWith('release/hellodep'))).toMatchObject({
          machine: 'riscv64',
        });
        expect(result.state?.plan?.packages.some((p) => p.startsWith('librust-'))).toBe(false);
        expect(result.state?.fetchedDependencies?.items).toEqual([
          expect.objectContaining({
            kind: 'crate',
            name: 'tinydep',
            version: '0.1.0',
            hash: `sha256:${checksum}`,
            suppliedBy: 'registry',
          }),
        ]);
        expect(report).toContain(
          `| tinydep | 0.1.0 | sha256:${checksum} | crate registry ${registry.indexUrl} |`,
        );
        const { entries } = await new RecipeCache(recipeCacheDir({ RVPORT_HOME: home })).list();
        expect(entries.find((e) => e.package === 'hellodep')?.fetchedDependencies).toEqual([
          expect.objectContaining({ name: 'tinydep', version: '0.1.0', hash: `sha256:${checksum}` }),
        ]);
        expect(
          existsSync(join(home, 'deps', 'cargo', 'crates', 'tinydep-0.1.0', '.cargo-checksum.json')),
        ).toBe(true);
      } finally {
        await registry.close();
      }
    },
    45 * MINUTES,
  );

  it(
    'refuses a .crate that does not match Cargo.lock, with a clear message and exit code 1, and stores nothing',
    async () => {
      const tampered: RegistryCrate = { ...TINYDEP, version: '0.1.1', tamper: true };
      const registry = await startCargoRegistry([tampered]);
      try {
        const checksum = registry.checksums.get('tinydep 0.1.1') as string;
        const source = crate('tamperdep', checksum);
        writeFileSync(
          join(source, 'Cargo.lock'),
          readFileSync(join(source, 'Cargo.lock'), 'utf8').replace(
            'version = "0.1.0"\nsource',
            'version = "0.1.1"\nsource',
          ),
        );
        const result = await runPort(request(source, registry), {
          signal: AbortSignal.timeout(5 * MINUTES),
          progress: () => {},
        });
        expect(result.kind).toBe('escalated');
        expect(result.exitCode).toBe(1);
        expect(result.message).toMatch(/tinydep 0\.1\.1 does not match Cargo\.lock/);
        expect(result.message).not.toMatch(/\n\s+at /);
        expect(result.state?.executed ?? []).toEqual([]);
        expect(existsSync(join(home, 'deps', 'cargo', 'crates', 'tinydep-0.1.1'))).toBe(false);
      } finally {
        await registry.close();
      }
    },
    10 * MINUTES,
  );
});
