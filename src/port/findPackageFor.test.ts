import { describe, expect, it } from 'vitest';
import type { ContentsLookup } from '../analysis/dependencies/ContentsIndex.ts';
import { ContentsIndex } from '../analysis/dependencies/ContentsIndex.ts';
import { findPackageFor } from './findPackageFor.ts';

/** A Contents index that knows a few riscv64 files. */
const contents: ContentsLookup = {
  lookup(paths: Iterable<string>) {
    const known: Record<string, string[]> = {
      'usr/lib/riscv64-linux-gnu/cmake/fmt/fmt-config.cmake': ['libfmt-dev'],
      'usr/bin/gperf': ['gperf'],
    };
    return new Map([...paths].flatMap((p) => (known[p] ? [[p, known[p]] as [string, string[]]] : [])));
  },
};

describe('findPackageFor', () => {
  it("finds a CMake package by its config file, or by CMake's own module name", () => {
    expect(findPackageFor(contents, 'cmake-package', 'fmt')).toBe('libfmt-dev');
    expect(findPackageFor(contents, 'cmake-package', 'ZLIB')).toBe('zlib1g-dev');
    expect(findPackageFor(contents, 'cmake-package', 'GIF')).toBeNull();
  });

  it('finds a program', () => {
    expect(findPackageFor(contents, 'command', 'gperf')).toBe('gperf');
  });

  it('finds a header named with its folder one or two folders below usr/include, never a bare name', () => {
    const index = ContentsIndex.fromText(
      [
        'usr/include/GNUstep/Foundation/Foundation.h\tlibgnustep-base-dev',
        'usr/include/zlib.h\tzlib1g-dev',
        'usr/include/foo/config.h\tlibfoo-dev',
        'usr/include/bar/config.h\tlibbar-dev',
        'usr/include/a/b/c/deep/x.h\tlibdeep-dev',
      ].join('\n'),
    );
    expect(findPackageFor(index, 'header', 'Foundation/Foundation.h')).toBe('libgnustep-base-dev');
    expect(findPackageFor(index, 'header', 'zlib.h')).toBe('zlib1g-dev');
    expect(findPackageFor(index, 'header', 'config.h')).toBeNull();
    expect(findPackageFor(index, 'header', 'deep/x.h')).toBeNull();
  });
});
