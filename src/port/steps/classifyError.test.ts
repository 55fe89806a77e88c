import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyError } from './classifyError.ts';

describe('classifyError', () => {
  it.each([
    ['cp: error writing foo.o: No space left on device', 'DISK_SPACE'],
    [
      "fatal: unable to access 'https://example.invalid/x.git/': Could not resolve host: example.invalid",
      'NETWORK',
    ],
    ['src/lj_arch.h:62:2: error: #error "No support for this architecture (yet)"', 'ARCHITECTURE_IMPOSSIBLE'],
    ['configure: error: no supported vectorization found for this CPU', 'ARCHITECTURE_IMPOSSIBLE'],
    ['zlib_wrap.c:3:10: fatal error: zlib.h: No such file or directory', 'DEPENDENCY'],
    ["Package 'libpng', required by 'virtual:world', not found", 'DEPENDENCY'],
    ["No package 'ogg' found", 'DEPENDENCY'],
    ['configure: error: Package requirements (json) were not met:', 'DEPENDENCY'],
    ['-- Could NOT find ZLIB (missing: ZLIB_LIBRARY ZLIB_INCLUDE_DIR)', 'DEPENDENCY'],
    ['/usr/bin/ld: cannot find -lncurses: No such file or directory', 'DEPENDENCY'],
    ['Run-time dependency glib-2.0 found: NO (tried pkgconfig)', 'DEPENDENCY'],
    ['sh: 1: autoreconf: not found', 'MISSING_TOOLS'],
    ['/bin/bash: line 1: cmake: command not found', 'MISSING_TOOLS'],
    ['gperf must be in the path', 'MISSING_TOOLS'],
    ['cannot find protoc', 'MISSING_TOOLS'],
    ["meson.build:695:0: ERROR: Program 'gperf' not found or not executable", 'MISSING_TOOLS'],
    ['CMake Error at CMakeLists.txt:3 (find_program):', 'MISSING_TOOLS'],
    ['mkdir: cannot create directory /usr/share/x: Permission denied', 'PERMISSION'],
    ["foo.c:(.text+0x1c): undefined reference to `__atomic_compare_exchange_1'", 'LINKING'],
    ['foo.o: relocation truncated to fit: R_RISCV_JAL against symbol', 'LINKING'],
    ["gcc: error: unrecognized command-line option '-msse2'", 'ARCHITECTURE'],
    ["cc1: error: unrecognized command-line option '-mfpmath=387'", 'ARCHITECTURE'],
    ['/usr/lib/gcc/riscv64-linux-gnu/14/include/immintrin.h: No such file', 'ARCHITECTURE'],
    ['configure: error: cannot guess build type; you must specify one', 'CONFIGURATION'],
    [
      "Invalid configuration `riscv64-unknown-linux-gnu': machine `riscv64-unknown' not recognized",
      'CONFIGURATION',
    ],
    ['CMake Error at CMakeLists.txt:3 (project):', 'CONFIGURATION'],
    ['sh: 1: ./configure: Permission denied', 'CONFIGURATION'],
    ["foo.c:12:5: error: 'bar' undeclared (first use in this function)", 'COMPILATION'],
    ['make: *** [Makefile:12: foo.o] Error 1', 'COMPILATION'],
    ['Segmentation fault (core dumped)', 'UNKNOWN'],
  ])('%s → %s', (text, category) => {
    expect(classifyError(`some context\n${text}\nmore`).category).toBe(category);
  });

  it('prefers the cause over the make error that follows it', () => {
    const output =
      'foo.c:1:10: fatal error: ogg/ogg.h: No such file or directory\nmake: *** [Makefile:9: foo.o] Error 1';
    expect(classifyError(output)).toEqual({
      category: 'DEPENDENCY',
      severity: 'medium',
      evidence: 'foo.c:1:10: fatal error: ogg/ogg.h: No such file or directory',
    });
  });

  it('reports a time-out as TIMEOUT whatever the output says', () => {
    expect(classifyError('foo.c: error: x', { timedOut: true }).category).toBe('TIMEOUT');
  });
});

describe('classifyError on real build output', () => {
  const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}.txt`, import.meta.url), 'utf8');

  it('does not read the words of a warning or of the source line it quotes', () => {
    // The warning quotes `"could not connect to %d"`, which is a network error's wording.
    expect(classifyError(fixture('missing-header-then-warning-sodium-core'))).toEqual({
      category: 'DEPENDENCY',
      severity: 'medium',
      evidence: 'a.c:1:10: fatal error: sodium/core.h: No such file or directory',
    });
  });
});

describe('classifyError on GCC in a UTF-8 locale', () => {
  it('reads an x86 option quoted with ‘…’ as ARCHITECTURE', () => {
    const fixture = readFileSync(new URL('../../heuristics/fixtures/x86-flag.txt', import.meta.url), 'utf8');
    expect(classifyError(fixture).category).toBe('ARCHITECTURE');
  });

  it("reads configure's refusal of riscv64 as ARCHITECTURE_IMPOSSIBLE, not a configuration to mend", () => {
    // kexec-tools 2.0.29's configure (Debian trixie), in the sandbox
    const output = [
      'checking host system type... riscv64-unknown-linux-gnu',
      'checking target system type... riscv64-unknown-linux-gnu',
      'configure: error: unsupported architecture riscv64',
    ].join('\n');
    expect(classifyError(output).category).toBe('ARCHITECTURE_IMPOSSIBLE');
    expect(classifyError('configure: error: riscv64 is not supported yet').category).toBe(
      'ARCHITECTURE_IMPOSSIBLE',
    );
    expect(classifyError('configure: error: libfoo not found').category).not.toBe('ARCHITECTURE_IMPOSSIBLE');
  });
});
