import { describe, expect, it } from 'vitest';
import { charSignedness } from './charSignedness.ts';
import { scanWith } from './scanWith.testing.ts';

describe('char-signedness', () => {
  it('reports a plain char receiving getc/getopt or compared with EOF', () => {
    const text =
      'int main(void) {\n  char c;\n  while ((c = getc(stdin)) != EOF) putchar(c);\n  return 0;\n}\n';
    expect(scanWith(charSignedness, { 'a.c': text })).toEqual([
      expect.objectContaining({ severity: 'high', line: 3 }),
    ]);
    expect(
      scanWith(charSignedness, { 'b.c': 'void f(void) {\n  char opt = getopt(argc, argv, "v");\n}\n' })[0]
        ?.line,
    ).toBe(2);
    expect(
      scanWith(charSignedness, { 'c.c': 'char ch;\nvoid g(void) { if (ch == -1) return; }\n' })[0]?.line,
    ).toBe(2);
  });

  it('is silent for int variables, signed/unsigned char, pointers and other scopes', () => {
    expect(scanWith(charSignedness, { 'd.c': 'int c;\nwhile ((c = getc(f)) != EOF) {}\n' })).toEqual([]);
    expect(scanWith(charSignedness, { 'e.c': 'signed char c;\nc = getc(f);\n' })).toEqual([]);
    expect(scanWith(charSignedness, { 'f.c': 'char *p;\nunsigned char u;\nu = getc(f);\n' })).toEqual([]);
    const scopes =
      'void a(void) { char c = 0; }\nint main(void) {\n  int c;\n  c = getopt(argc, argv, "x");\n  if (c == -1) return 0;\n}\n';
    expect(scanWith(charSignedness, { 'g.c': scopes })).toEqual([]);
    expect(scanWith(charSignedness, { 'h.c': 'char f2;\nif (st.f2 == -1) {}\n' })).toEqual([]);
  });
});
