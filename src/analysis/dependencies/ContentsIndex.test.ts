import { describe, expect, it } from 'vitest';
import { ContentsIndex, keptLine } from './ContentsIndex.ts';

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

describe('keptLine', () => {
  it('keeps Go folders once, crate manifests and build files whole, and drops the rest', () => {
    const seen = new Set<string>();
    expect(
      keptLine('usr/share/gocode/src/github.com/google/uuid/dce.go', ['golang-github-google-uuid-dev'], seen),
    ).toBe('usr/share/gocode/src/github.com/google/uuid/\tgolang-github-google-uuid-dev\n');
    expect(
      keptLine('usr/share/gocode/src/github.com/google/uuid/doc.go', ['golang-github-google-uuid-dev'], seen),
    ).toBeNull();
    expect(keptLine('usr/share/gocode/src/README', ['x'], seen)).toBeNull();
    expect(keptLine('usr/share/cargo/registry/fnv-1.0.7/Cargo.toml', ['librust-fnv-dev'], seen)).toBe(
      'usr/share/cargo/registry/fnv-1.0.7/Cargo.toml\tlibrust-fnv-dev\n',
    );
    expect(keptLine('usr/share/cargo/registry/fnv-1.0.7/lib.rs', ['librust-fnv-dev'], seen)).toBeNull();
    expect(keptLine('usr/include/zlib.h', ['zlib1g-dev'], seen)).toBe('usr/include/zlib.h\tzlib1g-dev\n');
    expect(keptLine('usr/share/doc/zlib1g/README', ['zlib1g'], seen)).toBeNull();
    // a library in a folder named as it is, and not a plugin in a folder named otherwise
    expect(keptLine('usr/lib/quickjs/libquickjs.a', ['libquickjs'], seen)).toBe(
      'usr/lib/quickjs/libquickjs.a\tlibquickjs\n',
    );
    expect(
      keptLine('usr/lib/riscv64-linux-gnu/gstreamer-1.0/libgstogg.so', ['gstreamer1.0-plugins-base'], seen),
    ).toBeNull();
  });
});
