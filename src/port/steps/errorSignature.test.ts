import { describe, expect, it } from 'vitest';
import { errorSignature } from './errorSignature.ts';

describe('errorSignature', () => {
  it('is the same for one error seen at other lines, addresses and temp paths', () => {
    const a = "make: *** [Makefile:42: foo.o] Error 1\n/tmp/rvport-abc/foo.c:12:5: error: 'x' undeclared";
    const b = "make: *** [Makefile:97: foo.o] Error 2\n/tmp/rvport-xyz/foo.c:80:1: error: 'x' undeclared";
    expect(errorSignature(a)).toBe(errorSignature(b));
  });

  it('differs for different errors', () => {
    expect(errorSignature("foo.c:1: error: 'x' undeclared")).not.toBe(
      errorSignature("foo.c:1: error: 'y' undeclared"),
    );
  });

  it('prefers error lines over noise and falls back to the last lines', () => {
    expect(errorSignature('checking for gcc... yes\nconfigure: error: no acceptable C compiler')).toBe(
      'configure: error: no acceptable c compiler',
    );
    expect(errorSignature('one\ntwo\nthree\nfour')).toBe('two | three | four');
  });
});
