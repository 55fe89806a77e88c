import { describe, expect, it } from 'vitest';
import type { CliContext } from './CliContext.ts';
import { commandNames } from './commands.ts';
import { buildProgram } from './main.ts';

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
    const parse = async (...args: string[]) => {
      const c = ctx();
      const argv = ['node', 'rvport', ...args];
      // exitOverride: commander throws where it would exit (main turns that into the exit code)
      await expect((await buildProgram(c, argv)).parseAsync(argv)).rejects.toThrow();
      return c.text;
    };
    const help = await parse('--help');
    for (const name of commandNames) expect(help).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    expect(await parse('prot')).toMatch(/unknown command 'prot'[\s\S]*Did you mean port\?/);
  });
});
