import { describe, expect, it } from 'vitest';
import type { ShellWord } from './parseShell.ts';
import { shellScriptOf } from './shellScriptOf.ts';

const words = (...texts: string[]): ShellWord[] =>
  texts.map((text) => ({ text, dynamic: false, glob: false }));
const kind = (...texts: string[]) => {
  const script = shellScriptOf('bash', words(...texts));
  return script.kind === 'string'
    ? `string:${script.source.text}`
    : script.kind === 'file'
      ? `file:${script.path.text}`
      : script.kind;
};

describe('shellScriptOf', () => {
  it('finds the -c string after bundled and valued options', () => {
    expect(kind('-c', 'make')).toBe('string:make');
    expect(kind('-Ec', 'make')).toBe('string:make');
    expect(kind('-xec', 'make', 'name')).toBe('string:make');
    expect(kind('-o', 'pipefail', '-c', 'make')).toBe('string:make');
    expect(kind('--norc', '-c', '--', 'make')).toBe('string:make');
    expect(kind('-c', '-e', 'make')).toBe('string:make');
  });

  it('tells a script file from standard input', () => {
    expect(kind('build.sh', 'arg')).toBe('file:build.sh');
    expect(kind()).toBe('stdin');
    expect(kind('-s', 'arg')).toBe('stdin');
    expect(kind('-')).toBe('stdin');
    expect(kind('/dev/stdin')).toBe('stdin');
    expect(kind('/proc/self/fd/0')).toBe('stdin');
  });

  it('refuses options it does not know and words it cannot resolve', () => {
    expect(kind('-Z', 'x')).toBe('refused');
    expect(kind('--rcfilex', 'x')).toBe('refused');
    expect(shellScriptOf('sh', [{ text: '$OPTS', dynamic: true, glob: false }]).kind).toBe('refused');
  });
});
