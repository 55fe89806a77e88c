import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PortRequest, runPort } from '../../src/port/run/runPort.ts';
import { findImages } from '../../src/sandbox/findImages.ts';
import { makePortHome } from '../helpers/portHome.ts';

// A crate with dependencies, a build script and a proc-macro (serde's derive), ported for real
// and offline in accelerated mode with the Rust layer (x86_64 cargo and rustc building riscv64):
// verified, its tests passing, and its build scripts and proc-macros (x86_64 by design) not
// counted as wrong-architecture artifacts. Its time against an emulated build is a benchmark
// (bench/rust-go-debian.ts, BENCHMARKS.md), not an assertion: the emulated port alone takes a
// quarter of an hour here. Needs `rvport sandbox setup --mode accelerated --rust`.
const MINUTES = 60_000;
let home: string;
let work: string;

beforeAll(() => {
  home = makePortHome('rvport-rust-accel-home-');
  work = mkdtempSync(join(tmpdir(), 'rvport-rust-accel-work-'));
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

function crate(): string {
  const dir = join(work, 'pointjson');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(
    join(dir, 'Cargo.toml'),
    '[package]\nname = "pointjson"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nserde = { version = "1", features = ["derive"] }\nserde_json = "1"\n',
  );
  // the build script reads the target from cargo, as it must when it runs as an x86_64 program
  writeFileSync(
    join(dir, 'build.rs'),
    'fn main() {\n    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap();\n    println!("cargo:rustc-env=POINT_ARCH={arch}");\n}\n',
  );
  writeFileSync(
    join(dir, 'src', 'main.rs'),
    [
      'use serde::{Deserialize, Serialize};',
      '#[derive(Serialize, Deserialize, Debug, PartialEq)]',
      'struct Point { x: i32, y: i32 }',
      'fn main() {',
      '    let text = serde_json::to_string(&Point { x: 3, y: -4 }).unwrap();',
      '    println!("{text} on {}", env!("POINT_ARCH"));',
      '}',
      '#[cfg(test)]',
      'mod tests {',
      '    #[test]',
      '    fn round_trips() {',
      '        let p: super::Point = serde_json::from_str(r#"{"x":1,"y":2}"#).unwrap();',
      '        assert_eq!(p, super::Point { x: 1, y: 2 });',
      '        assert_eq!(env!("POINT_ARCH"), "riscv64");',
      '    }',
      '}',
      '',
    ].join('\n'),
  );
  return dir;
}

function request(source: string, mode: PortRequest['mode'], out: string): PortRequest {
  return {
    source,
    maxAttempts: 2,
    force: true,
    optimize: false,
    package: false,
    restart: false,
    mode,
    out: join(work, out),
    offline: true,
    keepSandbox: false,
    // the replay is tested on its own (test/port/replay.int.test.ts)
    replay: false,
    env: { ...process.env, RVPORT_HOME: home },
  };
}

describe('a crate with dependencies in accelerated mode', () => {
  it(
    'builds with the x86_64 cargo and rustc for riscv64, verified with its tests passing',
    async () => {
      const images = await findImages(home);
      expect(
        images.rust,
        'the Rust layer is provisioned (rvport sandbox setup --mode accelerated --rust)',
      ).toBeDefined();
      const source = crate();
      const notes: string[] = [];
      const progress = (e: unknown) => notes.push(JSON.stringify(e));
      const accelerated = await runPort(request(source, 'accelerated', 'accel'), {
        signal: AbortSignal.timeout(40 * MINUTES),
        progress,
      });
      expect(accelerated.kind, `${accelerated.message}\n${notes.slice(-20).join('\n')}`).toBe('verified');
      const state = accelerated.state;
      expect(state?.options.modeReason).toMatch(/Rust: x86_64 cargo and rustc \(rustaccel-/);
      expect(state?.llm.calls).toBe(0);
      expect(state?.tests).toMatchObject({ ran: true, failed: 0 });
      expect(state?.tests?.passed).toBeGreaterThan(0);
      const artifact = state?.artifacts.find((a) =>
        a.path.endsWith('riscv64gc-unknown-linux-gnu/release/pointjson'),
      );
      expect(artifact).toMatchObject({ machine: 'riscv64' });
      expect(state?.artifacts.some((a) => a.path.includes('build-script-build'))).toBe(false);
    },
    45 * MINUTES,
  );
});
