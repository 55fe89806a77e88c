import { describe, expect, it } from 'vitest';
import { cargoDependencies } from './cargoDependencies.ts';

describe('Cargo.toml dependencies', () => {
  it('reads dependency tables, optional ones included, dev-dependencies excluded', () => {
    const text =
      '[package]\nname = "x"\n\n[dependencies]\nlibc = "0.2"\nserde = { version = "1", optional = true }\n\n[dev-dependencies]\nquickcheck = "1"\n\n[dependencies.rand]\nversion = "0.8"\n';
    expect(
      cargoDependencies
        .extract({ path: 'Cargo.toml', text, lines: text.split('\n') })
        .map((d) => [d.name, d.required]),
    ).toEqual([
      ['libc', true],
      ['serde', false],
      ['rand', true],
    ]);
  });
});
