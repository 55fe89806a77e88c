import { describe, expect, it } from 'vitest';
import { imakeDependencies } from './imakeDependencies.ts';

describe('imakeDependencies', () => {
  it("needs xmkmf and the libraries of imake's variables and -l flags", () => {
    const text =
      'XMLIB = -lXm\nLOCAL_LIBRARIES = $(XMLIB) $(XTOOLLIB) $(XMULIBONLY) $(XLIB) -lm\nSRCS = a.c\n';
    const deps = imakeDependencies.extract({ path: 'Imakefile', text, lines: text.split('\n') });
    expect(deps.map((d) => [d.kind, d.name, d.line])).toEqual([
      ['program', 'xmkmf', 1],
      ['library', 'Xm', 1],
      ['library', 'Xt', 2],
      ['library', 'Xmu', 2],
      ['library', 'X11', 2],
    ]);
  });
});
