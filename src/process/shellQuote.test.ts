import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote } from './shellQuote.ts';

describe('shellQuote', () => {
  it('leaves plain words alone and gives a real shell back exactly the text', () => {
    expect(shellQuote('CFLAGS=-O2')).toBe('CFLAGS=-O2');
    for (const text of ["it's", 'a b', '$(id)', '`id`', '*', 'two\nlines', '', "'"]) {
      const echoed = execFileSync('/bin/sh', ['-c', `printf %s ${shellQuote(text)}`], { encoding: 'utf8' });
      expect(echoed, text).toBe(text);
    }
  });

  it('refuses a NUL, which no shell word can hold', () => {
    expect(() => shellQuote('a\0b')).toThrow(/NUL/);
  });
});
