import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPort } from '../../src/port/run/runPort.ts';
import { makePortHome } from '../helpers/portHome.ts';

// A crate with dependencies, ported for real and offline: the crates come from Debian's
// librust-*-dev packages through a directory-registry source replacement, and a lock that pins a
// version Debian does not have is moved aside rather than failing the build.
const MINUTES = 60_000;
let home: string;
let work: string;

beforeAll(() => {
  home = makePortHome('rvport-cargo-home-');
  work = mkdtempSync(join(tmpdir(), 'rvport-cargo-work-'));
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const REGISTRY = 'registry+https://github.com/rust-lang/crates.io-index';

/** A tiny program crate using two crates Debian packages for riscv64, with a stale lock. */
function crate(): string {
  const dir = join(work, 'hashcount');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(
    join(dir, 'Cargo.toml'),
    '[package]\nname = "hashcount"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nfnv = "1.0"\nitoa = "1"\n',
  );
  writeFileSync(
    join(dir, 'src', 'main.rs'),
    [
      'use fnv::FnvHashMap;',
      'fn main() {',
      '    let mut counts: FnvHashMap<&str, u64> = FnvHashMap::default();',
      '    for word in "a b a c a".split(\' \') { *counts.entry(word).or_insert(0) += 1; }',
      '    let mut buffer = itoa::Buffer::new();',
      '    println!("a={}", buffer.format(counts["a"]));',
      '}',
      '',
    ].join('\n'),
  );
  // fnv 1.0.6 is not Debian's (1.0.7): cargo must not fail on the lock
  writeFileSync(
    join(dir, 'Cargo.lock'),
    [
      'version = 3',
      '',
      '[[package]]',
      'name = "fnv"',
      'version = "1.0.6"',
      `source = "${REGISTRY}"`,
      'checksum = "2fad85553e09a6f881f739c29f0b00b0f01357c743266d478b68951ce23285f3"',
      '',
      '[[package]]',
      'name = "hashcount"',
      'version = "0.1.0"',
      'dependencies = [',
      ' "fnv",',
      ' "itoa",',
      ']',
      '',
      '[[package]]',
      'name = "itoa"',
      'version = "1.0.14"',
      `source = "${REGISTRY}"`,
      '',
    ].join('\n'),
  );
  return dir;
}

describe('a crate with dependencies, offline', () => {
  it(
    "builds from Debian's packaged crates, verified, and the report names the packages and the lock's versions",
    async () => {
      const notes: string[] = [];
      const started = Date.now();
      const result = await runPort(
        {
          source: crate(),
          maxAttempts: 2,
          force: true,
          optimize: false,
          package: false,
          restart: false,
          mode: 'emulated',
          out: join(work, 'out'),
          offline: true,
          keepSandbox: false,
          env: { ...process.env, RVPORT_HOME: home },
        },
        {
          signal: AbortSignal.timeout(40 * MINUTES),
          progress: (e) => notes.push(JSON.stringify(e)),
        },
      );
      const report = readFileSync(join(result.outDir, 'report.md'), 'utf8');
      console.log(`cargo port: ${result.kind} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      expect(result.kind, `${result.message}\n${notes.slice(-20).join('\n')}\n${report}`).toBe('verified');
      expect(result.state?.plan?.packages).toEqual(
        expect.arrayContaining(['cargo', 'librust-fnv-dev', 'librust-itoa-dev']),
      );
      expect(result.state?.artifacts.find((a) => a.path.endsWith('release/hashcount'))).toMatchObject({
        machine: 'riscv64',
      });
      expect(result.state?.llm.calls).toBe(0);
      expect(report).toMatch(
        /\| fnv \| 1\.0 \| 1\.0\.6 \(differs\) \| librust-fnv-dev \| 1\.0\.7 \| Debian's registry \|/,
      );
      expect(report).toMatch(/\| itoa \| 1 \| 1\.0\.14 \| librust-itoa-dev \| 1\.0\.14 \|/);
      expect(report).toMatch(/`Cargo\.lock` moved aside .*fnv 1\.0\.6/);
    },
    45 * MINUTES,
  );
});
