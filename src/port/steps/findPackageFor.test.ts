import { describe, expect, it } from 'vitest';
import type { ContentsLookup } from '../../analysis/dependencies/ContentsIndex.ts';
import { ContentsIndex } from '../../analysis/dependencies/ContentsIndex.ts';
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

  it('finds a library in its own folder below usr/lib, after the multiarch folder', () => {
    const index = ContentsIndex.fromText(
      [
        'usr/lib/quickjs/libquickjs.a\tlibquickjs',
        'usr/lib/riscv64-linux-gnu/libz.so\tzlib1g-dev',
        'usr/lib/z/libz.so\tother-z',
      ].join('\n'),
    );
    expect(findPackageFor(index, 'library', 'quickjs')).toBe('libquickjs');
    expect(findPackageFor(index, 'library', 'z')).toBe('zlib1g-dev');
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

  it("finds a bare header in a library's own folder, named as the header is, and nowhere else", () => {
    const index = ContentsIndex.fromText(
      [
        'usr/include/giac/quickjs-libc.h\tlibgiac-dev',
        'usr/include/quickjs/quickjs-libc.h\tlibquickjs',
        'usr/include/lua5.4/lualib.h\tliblua5.4-dev',
        'usr/include/SDL/SDL_image.h\tlibsdl-image1.2-dev',
        'usr/include/SDL2/SDL_image.h\tlibsdl2-image-dev',
        'usr/include/foo/bar.h\tlibfoo-dev',
      ].join('\n'),
    );
    expect(findPackageFor(index, 'header', 'quickjs-libc.h')).toBe('libquickjs');
    expect(findPackageFor(index, 'header', 'lualib.h')).toBe('liblua5.4-dev');
    // two libraries keep one: nothing is chosen
    expect(findPackageFor(index, 'header', 'SDL_image.h')).toBeNull();
    // a folder named otherwise is not the header's own
    expect(findPackageFor(index, 'header', 'bar.h')).toBeNull();
  });
});
