import { describe, expect, it } from 'vitest';
import { ContentsIndex } from './ContentsIndex.ts';

describe('ContentsIndex.under', () => {
  it('finds every path under a folder, the first and the last line included, and nothing beside it', () => {
    const index = ContentsIndex.fromText(
      [
        'usr/share/cargo/registry/fnv-1.0.7/Cargo.toml\tlibrust-fnv-dev',
        'usr/include/zlib.h\tzlib1g-dev',
        'usr/share/cargo/registryx/evil-1.0.0/Cargo.toml\tnot-a-crate',
        'usr/share/cargo/registry/itoa-1.0.14/Cargo.toml\tlibrust-itoa-dev,other',
      ].join('\n'),
    );
    expect([...index.under('usr/share/cargo/registry/')]).toEqual([
      ['usr/share/cargo/registry/fnv-1.0.7/Cargo.toml', ['librust-fnv-dev']],
      ['usr/share/cargo/registry/itoa-1.0.14/Cargo.toml', ['librust-itoa-dev', 'other']],
    ]);
    expect(index.under('usr/share/gocode/').size).toBe(0);
  });
});
