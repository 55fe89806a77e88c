import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnosticLines, firstErrorLine, isContextLine } from './firstErrorLine.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}.txt`, import.meta.url), 'utf8');
const heuristicFixture = (name: string) =>
  readFileSync(new URL(`../../heuristics/fixtures/${name}.txt`, import.meta.url), 'utf8');

describe('firstErrorLine', () => {
  it.each([
    ['missing-header-then-warning-lz4', 'a.c:1:10: fatal error: lz4.h: No such file or directory'],
    ['undefined-reference', "m.c:(.text.startup+0x6): undefined reference to `helper'"],
    ['missing-library', '/usr/bin/ld: cannot find -lrvportnosuchlib: No such file or directory'],
  ])('%s → %s', (name, line) => {
    expect(firstErrorLine(fixture(name))?.text).toBe(line);
  });

  it("reads configure's, meson's and make's own error lines", () => {
    expect(firstErrorLine(heuristicFixture('configure-library-not-found'))?.text).toBe(
      'configure: error: --with-libidn was given but libidn was not found.',
    );
    expect(firstErrorLine(heuristicFixture('meson-dependency-not-found'))?.text).toBe(
      'meson.build:144:0: ERROR: Dependency "uuid" not found, tried pkgconfig and cmake',
    );
    expect(firstErrorLine(heuristicFixture('no-makefile'))?.text).toMatch(/^make: \*\*\* No targets/);
  });

  it('passes over warnings and quoted source even when an error word is in them', () => {
    const output = fixture('missing-header-then-warning-sodium-core');
    const tail = output.slice(output.indexOf('b.c: In function'));
    expect(tail).toContain('could not connect to');
    expect(firstErrorLine(tail)).toBeNull();
  });

  it("reads Go's and rustc's error lines, not the package names after them", () => {
    expect(firstErrorLine(fixture('go-test-binaries-same-name'))?.text).toBe(
      'cannot write test binary fsnotify.test for multiple packages:',
    );
    expect(firstErrorLine('# example.com/m\n./m.go:7:2: undefined: missing\n')?.text).toBe(
      './m.go:7:2: undefined: missing',
    );
    expect(firstErrorLine('   Compiling m v0.1.0\nerror[E0432]: unresolved import `serde`\n')?.text).toBe(
      'error[E0432]: unresolved import `serde`',
    );
  });

  it('returns null for output without an error line', () => {
    expect(firstErrorLine('checking for gcc... gcc\nall good')).toBeNull();
  });
});

describe('isContextLine', () => {
  it.each([
    ['    5 |   sprintf(buf, "could not connect to %d", n);', true],
    ['      |                 ~~~~^~~~~~~~~~~~~~~~~', true],
    ['b.c: In function ‘b’:', true],
    ['In file included from /usr/include/stdio.h:27,', true],
    ['b.c:3:7: warning: unused variable ‘unused’ [-Wunused-variable]', true],
    ['b.c:5:3: note: ‘sprintf’ output between 23 and 33 bytes', true],
    ['b.c:5:21: error: directive writing 21 bytes [-Werror=format-overflow=]', false],
    ['make: *** [Makefile:3: a.o] Error 1', false],
  ])('%s → %s', (line, context) => {
    expect(isContextLine(line)).toBe(context);
  });

  it('leaves the lines that can say what failed', () => {
    expect(diagnosticLines(fixture('missing-header-then-warning-zstd'))).toEqual([
      'cc -Wall -Wextra -O2 -c a.c -o a.o',
      'cc -Wall -Wextra -O2 -c b.c -o b.o',
      'a.c:1:10: fatal error: zstd.h: No such file or directory',
      'make: *** [Makefile:3: a.o] Error 1',
      "make: Target 'all' not remade because of errors.",
    ]);
  });
});

describe('firstErrorLine and the paths CMake puts on lines of their own', () => {
  it('joins the folder add_subdirectory did not find a CMakeLists.txt in (captured)', () => {
    expect(firstErrorLine(heuristicFixture('cmake-submodule-optional'))?.text).toBe(
      'CMake Error at CMakeLists.txt:6 (add_subdirectory): The source directory /build/src/tests/munit does not contain a CMakeLists.txt file.',
    );
  });

  it('joins the source file CMake cannot find, not the extensions it tried (captured)', () => {
    expect(firstErrorLine(heuristicFixture('cmake-submodule-source-file'))?.text).toBe(
      'CMake Error at third-party/CMakeLists.txt:1 (add_library): Cannot find source file: urlparse/urlparse.c',
    );
  });

  it("keeps a message's first line when it says what failed itself (mbedtls)", () => {
    expect(firstErrorLine(heuristicFixture('cmake-submodule-missing'))?.text).toBe(
      'CMake Error at CMakeLists.txt:339 (message): /build/src/framework/CMakeLists.txt not found (and does appear to be a git',
    );
  });
});
