import { describe, expect, it } from 'vitest';
import { ContentsIndex, parseContentsLine } from './ContentsIndex.ts';
import type { RawDependency } from './Dependency.ts';
import { resolveDependencies } from './resolveDependencies.ts';

const index = ContentsIndex.fromText(
  [
    'usr/include/zlib.h\tzlib1g-dev',
    'usr/lib/riscv64-linux-gnu/pkgconfig/yaml-0.1.pc\tlibyaml-dev',
    'usr/share/pkgconfig/systemd.pc\tsystemd-dev',
    'usr/lib/riscv64-linux-gnu/libcrypto.so\tlibssl-dev',
    'usr/include/readline/readline.h\tlibeditreadline-dev,libreadline-dev',
    'usr/lib/riscv64-linux-gnu/cmake/yaml/yamlConfig.cmake\tlibyaml-dev',
    'usr/bin/apr-1-config\tlibapr1-dev',
    'usr/include/crypto++/aes.h\tlibcrypto++-dev',
    'usr/include/cryptopp\tlibcrypto++-dev',
  ].join('\n'),
);
const dep = (kind: RawDependency['kind'], name: string, required = true): RawDependency => ({
  kind,
  name,
  file: 'x',
  line: 1,
  required,
});

describe('resolveDependencies', () => {
  it('resolves through the Contents index, by kind', () => {
    const resolved = resolveDependencies(
      [
        dep('header', 'zlib.h'),
        dep('pkg-config', 'yaml-0.1'),
        dep('pkg-config', 'systemd'),
        dep('library', 'libcrypto'),
        dep('cmake-package', 'yaml'),
        dep('program', 'apr-1-config'),
        dep('header', 'readline/readline.h'),
      ],
      index,
    );
    expect(resolved.map((d) => [d.name, d.debianPackages, d.resolvedBy])).toEqual([
      ['zlib.h', ['zlib1g-dev'], 'contents'],
      ['yaml-0.1', ['libyaml-dev'], 'contents'],
      ['systemd', ['systemd-dev'], 'contents'],
      ['libcrypto', ['libssl-dev'], 'contents'],
      ['yaml', ['libyaml-dev'], 'contents'],
      ['apr-1-config', ['libapr1-dev'], 'contents'],
      ['readline/readline.h', ['libreadline-dev', 'libeditreadline-dev'], 'contents'],
    ]);
  });

  it('finds a header under a folder the package links to another name', () => {
    const [aes, missing] = resolveDependencies(
      [dep('header', 'cryptopp/aes.h'), dep('header', 'nothere/x.h')],
      index,
    );
    expect(aes?.debianPackages).toEqual(['libcrypto++-dev']);
    expect(missing?.debianPackages).toEqual([]);
  });

  it('falls back to the alias table last, and merges duplicates', () => {
    const resolved = resolveDependencies(
      [dep('cmake-package', 'ZLIB', false), dep('cmake-package', 'ZLIB', true), dep('pkg-config', 'nope')],
      null,
    );
    expect(resolved).toEqual([
      expect.objectContaining({
        name: 'ZLIB',
        required: true,
        debianPackages: ['zlib1g-dev'],
        resolvedBy: 'alias',
      }),
      expect.objectContaining({ name: 'nope', debianPackages: [], resolvedBy: null }),
    ]);
  });

  it("takes the compiler's own libraries (in gcc's versioned folder) as the compiler's", () => {
    const [atomic, cxx] = resolveDependencies(
      [dep('library', 'atomic', true), dep('library', 'stdc++', true)],
      null,
    );
    expect(atomic?.debianPackages).toEqual(['gcc']);
    expect(cxx?.debianPackages).toEqual(['g++']);
  });

  it('parses Contents lines, dropping sections', () => {
    expect(parseContentsLine('usr/include/zlib.h                 libdevel/zlib1g-dev')).toEqual([
      'usr/include/zlib.h',
      ['zlib1g-dev'],
    ]);
    expect(parseContentsLine('usr/bin/x   utils/a,universe/utils/b')).toEqual(['usr/bin/x', ['a', 'b']]);
  });
});
