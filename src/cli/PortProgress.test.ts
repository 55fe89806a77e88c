import { describe, expect, it } from 'vitest';
import { PortProgress } from './PortProgress.ts';

function terminal() {
  const chunks: string[] = [];
  const stream = { isTTY: true, columns: 120, write: (s: string) => chunks.push(s) };
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => chunks.join('') };
}

describe('PortProgress', () => {
  it("writes a hostile build's commands and output without their escape sequences", () => {
    const { stream, text } = terminal();
    const progress = new PortProgress(stream, true);
    progress.handle({ type: 'node', node: 'build' });
    progress.handle({ type: 'phase', phase: 'build', command: 'make \x1b]0;owned\x07all' });
    progress.handle({ type: 'output', line: '\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\x1b[Hcc -c foo.c' });
    progress.handle({ type: 'note', message: 'retrying \x1b[1A\x1b[2Kquietly' });
    progress.stop();
    // rvport's own status-line control (carriage return, erase line) is the only escape left
    const own = text().replaceAll('\r\x1b[2K', '');
    for (const control of ['\x1b', '\x07', '\x9b']) expect(own).not.toContain(control);
    expect(own).toContain('  [build] $ make all\n');
    expect(own).toContain('cc -c foo.c');
    expect(own).toContain('  retrying quietly\n');
  });

  it('writes plain lines when the stream is not a terminal', () => {
    const { stream, text } = terminal();
    const progress = new PortProgress(stream, false);
    progress.handle({ type: 'node', node: 'init' });
    progress.handle({ type: 'output', line: 'not shown' });
    progress.handle({ type: 'phase', phase: 'configure', command: 'cmake -S . -B build' });
    progress.stop();
    expect(text()).toBe('» init\n  [configure] $ cmake -S . -B build\n');
  });
});
