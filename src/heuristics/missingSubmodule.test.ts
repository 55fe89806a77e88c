import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Submodule } from '../sources/emptySubmodules.ts';
import { describeSubmodule, submoduleNamedIn } from './missingSubmodule.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../heuristics/fixtures/${name}.txt`, import.meta.url), 'utf8');
const sub = (path: string, url: string | null = null): Submodule => ({ name: path, path, url });

describe('submoduleNamedIn', () => {
  it('finds the submodule by a path under the build tree (mbedtls, real output)', () => {
    const subs = [sub('tf-psa-crypto'), sub('framework', 'https://github.com/Mbed-TLS/mbedtls-framework')];
    expect(submoduleNamedIn(fixture('cmake-submodule-missing'), subs)?.path).toBe('framework');
  });

  it('finds the folder add_subdirectory adds, and a source file relative to the CMake file', () => {
    expect(submoduleNamedIn(fixture('cmake-submodule-optional'), [sub('tests/munit')])?.path).toBe(
      'tests/munit',
    );
    expect(
      submoduleNamedIn(fixture('cmake-submodule-source-file'), [sub('third-party/urlparse')])?.path,
    ).toBe('third-party/urlparse');
  });

  it('finds a file of the submodule relative to the folder make is in', () => {
    const output =
      "Making all in third-party\nmake[2]: Entering directory '/build/src/third-party'\nmake[2]: *** No rule to make target 'urlparse/urlparse.c', needed by 'urlparse.lo'.  Stop.\n";
    expect(submoduleNamedIn(output, [sub('third-party/urlparse')])?.path).toBe('third-party/urlparse');
  });

  it("finds the submodule a missing header is named after (nghttp2's munit, real output)", () => {
    const subs = [sub('third-party/urlparse'), sub('tests/munit')];
    expect(submoduleNamedIn(fixture('make-check-submodule-header'), subs)?.path).toBe('tests/munit');
    const header = (h: string) => `a.c:1:10: fatal error: ${h}: No such file or directory\n`;
    expect(submoduleNamedIn(header('zstd/zstd.h'), [sub('vendor/libzstd')])?.path).toBe('vendor/libzstd');
    // another header, and a name too short to say anything
    expect(submoduleNamedIn(header('munitx.h'), subs)).toBeNull();
    expect(submoduleNamedIn(header('t.h'), [sub('deps/t')])).toBeNull();
  });

  it('does not take a bare word, a path outside the tree or a folder that only shares a prefix', () => {
    const subs = [sub('framework'), sub('tests/munit')];
    expect(submoduleNamedIn('CMake Error: the framework is missing\n', subs)).toBeNull();
    expect(submoduleNamedIn('/usr/include/framework/x.h: No such file or directory\n', subs)).toBeNull();
    expect(submoduleNamedIn("cannot open 'tests/munit2/a.c'\n", subs)).toBeNull();
    expect(submoduleNamedIn(fixture('cmake-submodule-missing'), [])).toBeNull();
  });

  it('describes a submodule by path and URL', () => {
    expect(describeSubmodule(sub('framework', 'https://x.invalid/f'))).toBe(
      '`framework` (https://x.invalid/f)',
    );
    expect(describeSubmodule(sub('framework'))).toBe('`framework`');
  });
});
