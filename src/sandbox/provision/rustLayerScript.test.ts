import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RUST_HOST_LD_DIR, RUST_HOST_LINKER, rustLayerScript, rustWrapperScript } from './rustLayerScript.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The wrapper with its paths pointed at a fake rustc that prints its argv (host sh and sed). */
function wrapper(): { run: (...args: string[]) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-rustc-wrapper-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'bin'));
  const fake = join(dir, 'bin', 'rustc');
  writeFileSync(
    fake,
    '#!/bin/sh\nif [ "$1" = -vV ]; then printf "rustc 1.85.1\\nbinary: rustc\\nhost: x86_64-unknown-linux-gnu\\nrelease: 1.85.1\\n"; exit 0; fi\necho "$@"\n',
  );
  chmodSync(fake, 0o755);
  const script = rustWrapperScript()
    .replace('#!/native/usr/bin/dash', '#!/bin/sh')
    .replaceAll('/native/usr/bin/rustc', fake)
    .replaceAll('/native/usr/bin/sed', 'sed');
  const path = join(dir, 'wrapper');
  writeFileSync(path, script);
  chmodSync(path, 0o755);
  return { run: (...args) => execFileSync(path, args, { encoding: 'utf8' }) };
}

describe('the Rust layer rustc', () => {
  it('reports the riscv64 host to cargo, and only that line changes', () => {
    expect(wrapper().run('-vV')).toBe(
      'rustc 1.85.1\nbinary: rustc\nhost: riscv64gc-unknown-linux-gnu\nrelease: 1.85.1\n',
    );
  });

  it('links host units (no --target) with the x86_64 gcc and leaves target units alone', () => {
    const w = wrapper();
    expect(w.run('--crate-name', 'build_script_build', 'build.rs').trim()).toBe(
      `--crate-name build_script_build build.rs -C linker=${RUST_HOST_LINKER} -C link-arg=-B${RUST_HOST_LD_DIR}/`,
    );
    expect(w.run('--crate-name', 'x', '--target', 'riscv64gc-unknown-linux-gnu', 'lib.rs').trim()).toBe(
      '--crate-name x --target riscv64gc-unknown-linux-gnu lib.rs',
    );
    expect(w.run('--target=riscv64gc-unknown-linux-gnu', 'lib.rs').trim()).toBe(
      '--target=riscv64gc-unknown-linux-gnu lib.rs',
    );
  });

  it('is written by the layer script and diverts all three Rust programs', () => {
    const script = rustLayerScript();
    expect(script).toContain(rustWrapperScript());
    for (const tool of ['cargo', 'rustc', 'rustdoc']) expect(script).toContain(tool);
    expect(script).toMatch(/dpkg-divert --local --rename --divert \/usr\/bin\/\$tool\.riscv64/);
    expect(script).toContain('target = "riscv64gc-unknown-linux-gnu"');
  });
});
