import { describe, expect, it } from 'vitest';
import type { CliContext } from './CliContext.ts';
import { commandNames } from './commands.ts';
import { buildProgram, main } from './main.ts';

const ctx = (): CliContext & { text: string } => {
  const c = {
    exitCode: 0,
    signal: new AbortController().signal,
    text: '',
    out: (s: string) => {
      c.text += s;
    },
    err: (s: string) => {
      c.text += s;
    },
  };
  return c;
};
const registered = async (...args: string[]) =>
  (await buildProgram(ctx(), ['node', 'rvport', ...args])).commands.map((c) => c.name());

describe('buildProgram', () => {
  it('registers no command for --version', async () => {
    expect(await registered('--version')).toEqual([]);
    expect(await registered('-V')).toEqual([]);
  });

  it('registers only the invoked command', async () => {
    expect(await registered('verify', 'some-file')).toEqual(['verify']);
    expect(await registered('-v', 'workflow', 'status')).toEqual(['workflow']);
    expect(await registered('sandbox', 'exec', '--', 'port')).toEqual(['sandbox']);
  });

  it('registers every command for help, a mistyped command or none', async () => {
    expect(await registered('--help')).toEqual(commandNames);
    expect(await registered('help', 'port')).toEqual(commandNames);
    expect(await registered('prot')).toEqual(commandNames);
    expect(await registered()).toEqual(commandNames);
    expect(await registered('--version', '--help')).toEqual(commandNames);
  });

  it('still lists every command in the help and suggests one for a typo', async () => {
    const stdout: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((s: string) => stdout.push(s)) as typeof process.stdout.write;
    const stderr: string[] = [];
    const writeErr = process.stderr.write;
    process.stderr.write = ((s: string) => stderr.push(s)) as typeof process.stderr.write;
    try {
      expect(await main(['node', 'rvport', '--help'])).toBe(0);
      expect(await main(['node', 'rvport', 'prot'])).toBe(1);
    } finally {
      process.stdout.write = write;
      process.stderr.write = writeErr;
    }
    for (const name of commandNames) expect(stdout.join('')).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    expect(stderr.join('')).toMatch(/unknown command 'prot'[\s\S]*Did you mean port\?/);
  });
});
