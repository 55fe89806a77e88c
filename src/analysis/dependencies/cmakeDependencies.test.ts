import { describe, expect, it } from 'vitest';
import { cmakeDependencies } from './cmakeDependencies.ts';

const extract = (text: string) =>
  cmakeDependencies.extract({ path: 'CMakeLists.txt', text, lines: text.split('\n') });

describe('cmake dependencies', () => {
  it('reads find_package, pkg_check_modules, include and library checks', () => {
    const text = [
      'find_package(ZLIB REQUIRED)',
      'find_package(Threads)',
      'pkg_check_modules(GLIB REQUIRED IMPORTED_TARGET glib-2.0>=2.50 gio-2.0)',
      'check_include_file("sys/epoll.h" HAVE_EPOLL)',
      'find_library(M_LIB m)',
      'find_program(DOXYGEN doxygen)',
    ].join('\n');
    expect(extract(text).map((d) => [d.kind, d.name, d.line, d.required])).toEqual([
      ['cmake-package', 'ZLIB', 1, true],
      ['pkg-config', 'glib-2.0', 3, true],
      ['pkg-config', 'gio-2.0', 3, true],
      ['header', 'sys/epoll.h', 4, false],
      ['library', 'm', 5, false],
      ['program', 'doxygen', 6, false],
    ]);
  });
});

describe('cmake find_library of a variable', () => {
  it('takes no keyword for a library name', () => {
    const deps = extract(
      `find_library (FFTW_LIBRARIES NAMES \${FFTW_LIBRARIES})\nfind_program(WRAP NAMES \${W})`,
    );
    expect(deps.map((d) => d.name)).toEqual([]);
  });
});
