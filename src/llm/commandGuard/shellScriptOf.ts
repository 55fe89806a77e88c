import type { ShellWord } from './parseShell.ts';

/** Where a shell invocation takes the script it runs from. */
export type ShellScript =
  | { kind: 'string'; source: ShellWord }
  | { kind: 'file'; path: ShellWord }
  | { kind: 'stdin' }
  | { kind: 'refused'; reason: string };

/** Option letters of sh, dash and bash; `o` and `O` take a value. */
const SHELL_LETTERS = 'abcefhiklmnprstuvxBCEHPT';
const SHELL_LONG = new Set([
  '--norc',
  '--noprofile',
  '--posix',
  '--login',
  '--noediting',
  '--restricted',
  '--verbose',
  '--debugger',
  '--version',
  '--help',
]);
const SHELL_LONG_VALUE = new Set(['--rcfile', '--init-file']);
/** Paths that are the shell's own standard input. */
export const STDIN_PATH = /^(\/dev\/stdin|\/dev\/fd\/[0-9]+|\/proc\/(self|thread-self|[0-9]+)\/fd\/[0-9]+)$/;

/**
 * Reads a shell's options the way the shell does: bundled letters (`-Ec`, `-xec`), `-o name`,
 * `+o name`, bash's long options, `--` and `-` ending the options. With `-c` the first operand is
 * the script; without it the first operand is a script file, and with none (or `-s`) the script
 * is read from standard input.
 */
export function shellScriptOf(name: string, args: readonly ShellWord[]): ShellScript {
  let command = false;
  let stdin = false;
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i] as ShellWord;
    const text = word.text;
    if (word.dynamic || word.glob) {
      return { kind: 'refused', reason: `${name}: "${text}" is an expansion the guard cannot resolve` };
    }
    if (text === '--' || text === '-') {
      i++;
      break;
    }
    if (!/^[-+]/.test(text)) break;
    if (text.startsWith('--')) {
      if (SHELL_LONG.has(text)) continue;
      if (SHELL_LONG_VALUE.has(text)) {
        i++;
        continue;
      }
      return { kind: 'refused', reason: `${name} ${text} is not an option the guard knows` };
    }
    for (let j = 1; j < text.length; j++) {
      const letter = text[j] as string;
      if (letter === 'o' || letter === 'O') {
        // The value is the next word (`-o pipefail`); joined letters after o are not read.
        if (j !== text.length - 1) return { kind: 'refused', reason: `${name} ${text} cannot be read` };
        i++;
        if (!args[i]) return { kind: 'refused', reason: `${name} -${letter} needs a value` };
        continue;
      }
      if (!SHELL_LETTERS.includes(letter)) {
        return { kind: 'refused', reason: `${name} -${letter} is not an option the guard knows` };
      }
      if (text[0] === '-' && letter === 'c') command = true;
      if (text[0] === '-' && letter === 's') stdin = true;
    }
  }
  const operand = args[i];
  if (command) {
    if (!operand) return { kind: 'refused', reason: `${name} -c without a command` };
    return { kind: 'string', source: operand };
  }
  if (stdin || !operand) return { kind: 'stdin' };
  if (operand.dynamic || operand.glob) {
    return {
      kind: 'refused',
      reason: `${name} runs a script file named by an expansion ("${operand.text}")`,
    };
  }
  if (STDIN_PATH.test(operand.text)) return { kind: 'stdin' };
  return { kind: 'file', path: operand };
}
