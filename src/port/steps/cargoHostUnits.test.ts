import { describe, expect, it } from 'vitest';
import { cargoHostUnits } from './cargoHostUnits.ts';

describe('cargoHostUnits', () => {
  it('names the outputs under target/<profile> when the build had an explicit riscv64 target', () => {
    const outputs = [
      'target/release/build/serde-1a2b/build-script-build',
      'target/release/deps/libserde_derive-3c4d.so',
      'target/riscv64gc-unknown-linux-gnu/release/hello',
      'target/riscv64gc-unknown-linux-gnu/release/deps/libserde-5e6f.rlib',
      'vendor/prebuilt.o',
    ];
    expect([...cargoHostUnits(outputs)].sort()).toEqual([
      'target/release/build/serde-1a2b/build-script-build',
      'target/release/deps/libserde_derive-3c4d.so',
    ]);
  });

  it('keeps every output of a build without --target (its artifacts are in target/release)', () => {
    const outputs = ['target/release/hello', 'target/release/build/x-1/build-script-build'];
    expect(cargoHostUnits(outputs).size).toBe(0);
  });

  it('still judges a program left directly in target/<profile>, beside a riscv64 decoy', () => {
    const outputs = [
      'target/release/hello',
      'target/release/examples/demo',
      'target/riscv64gc-unknown-linux-gnu/release/hello',
    ];
    expect(cargoHostUnits(outputs).size).toBe(0);
  });

  it('works for a crate in a subfolder and leaves other target folders alone', () => {
    const outputs = [
      'crates/cli/target/debug/build/a-1/build-script-build',
      'crates/cli/target/riscv64gc-unknown-linux-gnu/debug/cli',
      'other/target/debug/tool',
    ];
    expect([...cargoHostUnits(outputs)]).toEqual(['crates/cli/target/debug/build/a-1/build-script-build']);
  });
});
