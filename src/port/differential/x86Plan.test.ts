import { describe, expect, it } from 'vitest';
import type { BuildPlan } from '../state/PortState.ts';
import { x86Plan } from './x86Plan.ts';

describe('x86Plan', () => {
  it('drops riscv64 switches and names the x86_64 triplet, keeping everything else', () => {
    const plan: BuildPlan = {
      buildSystem: 'autotools',
      dir: '.',
      phases: [
        {
          name: 'configure',
          commands: ['./configure --host=riscv64-linux-gnu --build=riscv64-unknown-linux-gnu'],
        },
        { name: 'build', commands: ['make -j2 CFLAGS="-O2 -mcmodel=medany -march=rv64gc"'] },
        { name: 'test', commands: ['make check'], optional: true },
      ],
      packages: ['libz-dev', 'binutils-riscv64-linux-gnu'],
      env: { CFLAGS: '-g -O2 -mcmodel=medany', LIBS: '-latomic' },
      expectedArtifacts: ['foo'],
      origin: 'default',
    };
    expect(x86Plan(plan)).toEqual({
      ...plan,
      phases: [
        {
          name: 'configure',
          commands: ['./configure --host=x86_64-linux-gnu --build=x86_64-unknown-linux-gnu'],
        },
        { name: 'build', commands: ['make -j2 CFLAGS="-O2"'] },
        { name: 'test', commands: ['make check'], optional: true },
      ],
      packages: ['libz-dev', 'binutils-x86-64-linux-gnu'],
      env: { CFLAGS: '-g -O2', LIBS: '-latomic' },
    });
  });

  it("names Rust's x86_64 target for a Cargo build's riscv64gc one", () => {
    const plan: BuildPlan = {
      buildSystem: 'cargo',
      dir: '.',
      phases: [{ name: 'build', commands: ['cargo build --release --offline'] }],
      packages: ['cargo'],
      env: { CARGO_BUILD_TARGET: 'riscv64gc-unknown-linux-gnu' },
      expectedArtifacts: [],
      origin: 'default',
    };
    expect(x86Plan(plan).env).toEqual({ CARGO_BUILD_TARGET: 'x86_64-unknown-linux-gnu' });
  });
});
