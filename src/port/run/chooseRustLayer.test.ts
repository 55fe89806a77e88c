import { describe, expect, it } from 'vitest';
import { chooseRustLayer, type RustProof } from './chooseRustLayer.ts';

const layer = { key: 'rustaccel-1', provisioned: true };
const proof = (identical: boolean, key = 'rustaccel-1'): RustProof => ({
  identical,
  layer: key,
  files: 3,
  differences: identical ? [] : ['target/riscv64gc-unknown-linux-gnu/release/x: bytes differ'],
  checkedAt: '2026-12-01T00:00:00Z',
});

describe('chooseRustLayer', () => {
  it('is silent for a build that is not Cargo, or a mode that is not accelerated', () => {
    expect(chooseRustLayer('cmake', 'accelerated', 'p', layer, undefined)).toBeNull();
    expect(chooseRustLayer('cargo', 'emulated', 'p', layer, undefined)).toBeNull();
    expect(chooseRustLayer('cargo', 'native-userland', 'p', layer, undefined)).toBeNull();
  });

  it('uses the x86_64 toolchain by default, and says when there is no proof', () => {
    const choice = chooseRustLayer('cargo', 'accelerated', 'p', layer, undefined);
    expect(choice).toMatchObject({ use: true });
    expect(choice?.reason).toMatch(/no proof for p yet/);
    expect(chooseRustLayer('cargo', 'accelerated', 'p', layer, proof(true))?.reason).toMatch(
      /proven identical .*\(3 artifacts/,
    );
  });

  it('builds a proc-macro crate with the emulated rustc, whose plugin is the riscv64 artifact', () => {
    const choice = chooseRustLayer('cargo', 'accelerated', 'auto-impl', layer, proof(true), true);
    expect(choice).toMatchObject({ use: false });
    expect(choice?.reason).toMatch(/auto-impl is a proc-macro crate.*rustc runs emulated$/);
  });

  it('falls back to the emulated rustc for a package proven different with this layer', () => {
    const choice = chooseRustLayer('cargo', 'accelerated', 'p', layer, proof(false));
    expect(choice).toMatchObject({ use: false });
    expect(choice?.reason).toMatch(/proven to build p differently \(target\/riscv64gc/);
  });

  it('does not trust a proof made with another layer either way', () => {
    expect(chooseRustLayer('cargo', 'accelerated', 'p', layer, proof(false, 'rustaccel-0'))).toMatchObject({
      use: true,
      reason: expect.stringMatching(/another Rust layer/),
    });
  });

  it('falls back when the layer is missing or refused, with the fix', () => {
    expect(
      chooseRustLayer('cargo', 'accelerated', 'p', { ...layer, provisioned: false }, undefined)?.reason,
    ).toMatch(/sandbox setup --mode accelerated --rust/);
    expect(
      chooseRustLayer('cargo', 'accelerated', 'p', { ...layer, refusedReason: 'versions differ' }, undefined),
    ).toMatchObject({ use: false, reason: expect.stringMatching(/refused \(versions differ\)/) });
  });
});
