import { describe, expect, it } from 'vitest';
import { printable } from './printable.ts';

describe('printable', () => {
  it('shows control characters as text and keeps lines', () => {
    expect(printable('a\u001b]52;c;x\u0007b\n\tc\u009bd\u007f')).toBe('a\\x1b]52;c;x\\x07b\n\tc\\x9bd\\x7f');
  });
  it('keeps the end of a long text', () => {
    expect(printable(`${'x'.repeat(10)}tail`, 4)).toBe('…tail');
  });
});
