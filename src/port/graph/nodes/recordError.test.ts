import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isErrorLoop } from '../../steps/escalation.ts';
import { portState } from '../../testing/portStateFixture.ts';
import { makeError } from './recordError.ts';

/** Real outputs of failing builds on the host (fixtures/capture.sh): stdout, then stderr. */
const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/${name}.txt`, import.meta.url), 'utf8');

describe('makeError', () => {
  it('records the missing header, not the warning printed after it', () => {
    const error = makeError({ node: 'build', output: fixture('missing-header-then-warning-zstd') });
    expect(error.category).toBe('DEPENDENCY');
    expect(error.errorLine).toBe('a.c:1:10: fatal error: zstd.h: No such file or directory');
    expect(error.signature).toBe('DEPENDENCY: a.c:N:N: fatal error: zstd.h: no such file or directory');
  });

  it('gives three different missing headers three signatures', () => {
    const signatures = ['zstd', 'lz4', 'sodium-core'].map(
      (h) => makeError({ node: 'build', output: fixture(`missing-header-then-warning-${h}`) }).signature,
    );
    expect(new Set(signatures).size).toBe(3);
    expect(signatures[2]).toContain('sodium/core.h');
    // three builds, each one header further: not an error loop
    const errors = ['zstd', 'lz4', 'sodium-core'].map((h) =>
      makeError({ node: 'build', output: fixture(`missing-header-then-warning-${h}`) }),
    );
    expect(isErrorLoop(portState({ attemptCount: 3, errors }))).toBe(false);
    const same = [1, 2, 3].map(() =>
      makeError({ node: 'build', output: fixture('missing-header-then-warning-lz4') }),
    );
    expect(isErrorLoop(portState({ attemptCount: 3, errors: same }))).toBe(true);
  });

  it('takes the linker error, not the line that names the object file', () => {
    const undefinedRef = makeError({ node: 'build', output: fixture('undefined-reference') });
    expect(undefinedRef).toMatchObject({
      category: 'LINKING',
      errorLine: "m.c:(.text.startup+0x6): undefined reference to `helper'",
    });
    const missingLib = makeError({ node: 'build', output: fixture('missing-library') });
    expect(missingLib).toMatchObject({
      category: 'DEPENDENCY',
      errorLine: '/usr/bin/ld: cannot find -lrvportnosuchlib: No such file or directory',
    });
  });

  it("joins CMake's message to its `CMake Error at` line", () => {
    const error = makeError({ node: 'build', output: fixture('cmake-error-at') });
    expect(error.errorLine).toBe(
      'CMake Error at CMakeLists.txt:3 (find_package): By not providing "FindRvportNoSuch.cmake" in CMAKE_MODULE_PATH this project',
    );
    expect(error.signature).toContain('findrvportnosuch.cmake');
  });

  it('puts an error line the tail does not show before the tail', () => {
    const noise = Array.from({ length: 60 }, (_, i) => `b.c:${i}:1: warning: unused variable 'v${i}'`);
    const output = ['a.c:1:10: fatal error: zstd.h: No such file or directory', ...noise].join('\n');
    const error = makeError({ node: 'build', output });
    expect(error.message.split('\n')[0]).toBe('a.c:1:10: fatal error: zstd.h: No such file or directory');
    expect(error.message).toContain("b.c:59:1: warning: unused variable 'v59'");
  });

  it('falls back to the deciding line, then to the tail, when no line is an error line', () => {
    const error = makeError({ node: 'build', output: 'Segmentation fault (core dumped)' });
    expect(error.errorLine).toBeUndefined();
    expect(error.signature).toBe('UNKNOWN: segmentation fault (core dumped)');
  });
});
