import { describe, expect, it } from 'vitest';
import { countCompiledSources } from './countCompiledSources.ts';

describe('countCompiledSources', () => {
  it('counts C, C++, assembly, Fortran, Go and Rust files, headers too, and nothing else', () => {
    const files = ['src/a.c', 'include/b.hpp', 'x.S', 'f/m.f90', 'cmd/main.go', 'src/lib.rs', 'h.h'];
    const data = [
      'words/en.dic',
      'README.md',
      'Makefile',
      'po/de.po',
      'share/x.svg',
      'bin/tool.py',
      'conf.sh',
    ];
    expect(countCompiledSources({ files: [...files, ...data] })).toBe(files.length);
    expect(countCompiledSources({ files: data })).toBe(0);
  });
});
