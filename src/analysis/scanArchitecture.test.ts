import { describe, expect, it } from 'vitest';
import { SourceTree } from './SourceTree.ts';
import { languageOf, scanArchitecture } from './scanArchitecture.ts';

describe('scanArchitecture', () => {
  it('sorts by severity and skips sources written for another architecture or OS', () => {
    const tree = SourceTree.fromFiles({
      'src/io.c': 'void f(void) {\n  char c = getc(stdin);\n}\n',
      'src/x86/simd.c': '#include <immintrin.h>\n',
      'win32/getopt.c': 'char c;\nc = getopt(argc, argv, "x");\n',
      Makefile: 'CFLAGS = -march=native\n',
    });
    const findings = scanArchitecture(tree);
    expect(findings.map((f) => `${f.severity} ${f.kind} ${f.file}`)).toEqual([
      'high char-signedness src/io.c',
      'medium march-native Makefile',
    ]);
  });

  it('knows which files are sources, assembly and build files', () => {
    expect(languageOf('a/b.cpp')).toBe('c');
    expect(languageOf('x.S')).toBe('asm');
    expect(languageOf('Makefile.am')).toBe('build');
    expect(languageOf('configure')).toBeNull();
    expect(languageOf('README.md')).toBeNull();
  });
});
