import { describe, expect, it } from 'vitest';
import type { ShellWord } from './parseShell.ts';
import { unwrapCommand } from './wrapperCommands.ts';

const words = (line: string): ShellWord[] =>
  line.split(' ').map((text) => ({ text, dynamic: text.startsWith('$'), glob: false }));
const inner = (line: string) => {
  const [name, ...args] = words(line);
  const result = unwrapCommand(name?.text ?? '', args);
  return result.kind === 'command' ? result.words.map((w) => w.text).join(' ') : result.kind;
};

describe('unwrapCommand', () => {
  it.each([
    ['time -f %e -o t.log make', 'make'],
    ['exec -a name make', 'make'],
    ['nice -n 5 make', 'make'],
    ['nice -5 make', 'make'],
    ['timeout -s KILL -k 5 60 make', 'make'],
    ['timeout --signal=KILL 60 make', 'make'],
    ['env -i -u X A=1 B=2 make', 'make'],
    ['stdbuf -o0 -eL make', 'make'],
    ['command -p make', 'make'],
    ['flock /tmp/l make', 'make'],
    ['chrt -f 1 make', 'make'],
    ['taskset -c 0 make', 'make'],
    ['xargs -0 -n 1 rm', 'rm'],
    ['command -v make', 'none'],
    ['ionice -p 1', 'none'],
    ['env', 'none'],
    ['flock -c make /tmp/l', 'script'],
    ['env -S make', 'refused'],
    ['env -iSmake', 'refused'],
    ['timeout $T make', 'refused'],
    ['nice --weird make', 'refused'],
    ['flock /tmp/l -c make', 'refused'],
  ])('%j runs %j', (line, expected) => expect(inner(line)).toBe(expected));
});
