import { describe, expect, it } from 'vitest';
import { archBuildLists } from './archBuildLists.ts';
import { scanWith } from './scanWith.testing.ts';

describe('arch-list', () => {
  it('reports a build-file line listing architectures without riscv', () => {
    const text =
      'dnl comment about x86_64 and arm\ncase "$host_cpu" in\n  x86_64|i?86|aarch64) ASM=yes ;;\nesac\n';
    expect(scanWith(archBuildLists, { 'configure.ac': text })).toEqual([
      expect.objectContaining({ line: 3, severity: 'medium' }),
    ]);
  });

  it('is silent when the file knows riscv, and in C sources', () => {
    expect(
      scanWith(archBuildLists, {
        'CMakeLists.txt': 'if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|aarch64|riscv64")\n',
      }),
    ).toEqual([]);
    expect(scanWith(archBuildLists, { 'a.c': '// x86_64 aarch64\n' })).toEqual([]);
  });
});
