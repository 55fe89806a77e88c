import { describe, expect, it } from 'vitest';
import { terminalSafe } from './terminalSafe.ts';

describe('terminalSafe', () => {
  it('keeps ordinary text, tabs and newlines', () => {
    expect(terminalSafe('configure: error: "libfoo not found"\n\tat line 3 — ünïcode')).toBe(
      'configure: error: "libfoo not found"\n\tat line 3 — ünïcode',
    );
  });

  it('removes the escape sequences a hostile build could print', () => {
    const clipboard = '\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07'; // OSC 52: set the clipboard
    const title = '\x1b]0;pwned\x1b\\'; // OSC 0 with ST terminator: the window title
    const clear = '\x1b[2J\x1b[H'; // clear the screen, cursor home
    const up = '\x1b[1A\x1b[2K'; // overwrite rvport's previous line
    const c1 = '\x9b31m'; // the one-byte CSI
    expect(terminalSafe(`${clipboard}${title}${clear}${up}${c1}error: real message`)).toBe(
      'error: real message',
    );
  });

  it('shows other control characters as ?', () => {
    expect(terminalSafe('a\rb\x08c\x00d\x07e')).toBe('a?b?c?d?e');
  });
});
