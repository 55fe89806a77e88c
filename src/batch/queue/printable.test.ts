import { describe, expect, it } from 'vitest';
import { printable } from './printable.ts';

describe('printable', () => {
  it('shows escape sequences instead of passing them to a terminal', () => {
    expect(printable('ok\u001b]0;owned\u0007 \u009b2J')).toBe('ok\\u001b]0;owned\\u0007 \\u009b2J');
    expect(printable('two\nlines, ünïcode')).toBe('two\nlines, ünïcode');
  });
});
