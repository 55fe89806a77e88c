import type { ShellWord } from './parseShell.ts';

/**
 * Commands that run another command given after their own options and operands (`timeout 5
 * make`, `env -i A=B make`). The guard unwraps them and checks the command inside; an option it
 * does not know is refused, because it cannot tell whether that option takes a value and so
 * where the wrapped command starts.
 */
interface WrapperSpec {
  /** Short options without a value. */
  short?: string;
  /** Short options with a value (`-n 5`, `-n5`). */
  shortValue?: string;
  long?: readonly string[];
  /** Long options with a value (`--signal=KILL` or `--signal KILL`). */
  longValue?: readonly string[];
  /** `nice -5 make`: a number is an option. */
  numeric?: boolean;
  /** Operands before the wrapped command (timeout's duration, flock's lock file). */
  operands?: number;
  /** Options after which no command follows (`command -v`, `ionice -p PID`). */
  query?: readonly string[];
  /** Options refused, with why. */
  refused?: Readonly<Record<string, string>>;
  /** `env`: `NAME=value` words before the command. */
  assignments?: boolean;
  /** Options whose value is a shell command line (`flock -c 'cmd'`). */
  script?: readonly string[];
  /** valgrind: every option is `--name=value` or a bare flag. */
  anyLongOption?: boolean;
}

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: {
    short: 'i0v',
    shortValue: 'uCS',
    long: ['--ignore-environment', '--null', '--debug'],
    longValue: ['--unset', '--chdir', '--split-string'],
    assignments: true,
    refused: {
      '-S': 'env -S splits a string into a command the guard cannot check',
      '--split-string': 'env -S splits a string into a command the guard cannot check',
    },
  },
  nice: { shortValue: 'n', longValue: ['--adjustment'], numeric: true },
  nohup: {},
  time: {
    short: 'pvqa',
    shortValue: 'fo',
    long: ['--portability', '--verbose', '--quiet', '--append'],
    longValue: ['--format', '--output'],
  },
  timeout: {
    short: 'v',
    shortValue: 'sk',
    long: ['--preserve-status', '--foreground', '--verbose'],
    longValue: ['--signal', '--kill-after'],
    operands: 1,
  },
  stdbuf: { shortValue: 'ioe', longValue: ['--input', '--output', '--error'] },
  exec: { short: 'cl', shortValue: 'a' },
  builtin: {},
  command: { short: 'pvV', query: ['-v', '-V'] },
  setsid: { short: 'cfw', long: ['--ctty', '--fork', '--wait'] },
  ionice: { short: 't', shortValue: 'cnp', query: ['-p'] },
  fakeroot: { short: 'u', shortValue: 'lsib', long: ['--unknown-is-real'], longValue: ['--lib', '--faked'] },
  unbuffer: { short: 'p' },
  flock: {
    short: 'sxnuoFv',
    shortValue: 'wEc',
    long: ['--shared', '--exclusive', '--nonblock', '--unlock', '--close', '--no-fork', '--verbose'],
    longValue: ['--timeout', '--conflict-exit-code', '--command'],
    operands: 1,
    script: ['-c', '--command'],
  },
  chrt: {
    short: 'bdfiorRav',
    shortValue: 'TPD',
    long: [
      '--batch',
      '--deadline',
      '--fifo',
      '--idle',
      '--other',
      '--rr',
      '--reset-on-fork',
      '--all-tasks',
      '--verbose',
    ],
    longValue: ['--sched-runtime', '--sched-period', '--sched-deadline'],
    operands: 1,
    query: ['-p', '--pid', '-m', '--max'],
  },
  taskset: { short: 'ac', long: ['--all-tasks', '--cpu-list'], operands: 1, query: ['-p', '--pid'] },
  catchsegv: {},
  valgrind: { short: 'qvs', anyLongOption: true },
  xargs: {
    short: '0rtpx',
    shortValue: 'InPdaELs',
    long: ['--null', '--no-run-if-empty', '--verbose', '--interactive', '--exit', '--open-tty'],
    longValue: [
      '--max-args',
      '--max-procs',
      '--delimiter',
      '--arg-file',
      '--max-chars',
      '--eof',
      '--process-slot-var',
    ],
  },
};

/** Commands that run other commands in ways the guard cannot follow; a build fix does not need them. */
export const OPAQUE_RUNNERS: Readonly<Record<string, string>> = {
  strace: 'traces and runs programs the guard cannot follow',
  ltrace: 'traces and runs programs the guard cannot follow',
  gdb: 'runs programs and commands the guard cannot follow',
  watch: 'runs its arguments through a shell, forever',
  parallel: 'runs commands built from its input',
  script: 'runs a shell',
  expect: 'runs scripts the guard cannot follow',
  at: 'schedules commands',
  batch: 'schedules commands',
  crontab: 'schedules commands',
};

export type Unwrapped =
  | { kind: 'command'; words: ShellWord[]; replace?: string }
  | { kind: 'none' }
  | { kind: 'script'; source: ShellWord }
  | { kind: 'refused'; reason: string };

const opt = (word: ShellWord | undefined) => word?.text ?? '';

/**
 * The command a wrapper runs, after its options and operands; `none` when it runs none
 * (`command -v gcc`, `env` alone). Every word before the command must be literal: `timeout $T
 * mount` could run `mount` as the duration or as the command.
 */
export function unwrapCommand(name: string, args: readonly ShellWord[]): Unwrapped {
  const spec = WRAPPERS[name];
  if (!spec) return { kind: 'refused', reason: `${name} is not a known wrapper` };
  const short = spec.short ?? '';
  const shortValue = spec.shortValue ?? '';
  let replace: string | undefined;
  let i = 0;
  const take = (optionName: string, value: ShellWord | undefined): Unwrapped | undefined => {
    if (!value) return { kind: 'refused', reason: `${name} ${optionName} needs a value` };
    if (value.dynamic) {
      return {
        kind: 'refused',
        reason: `${name} ${optionName} "${value.text}" is an expansion the guard cannot resolve`,
      };
    }
    if (spec.script?.includes(optionName)) return { kind: 'script', source: value };
    if (name === 'xargs' && optionName === '-I') replace = value.text;
    return undefined;
  };
  for (; i < args.length; i++) {
    const word = args[i] as ShellWord;
    const text = word.text;
    if (word.dynamic || word.glob) {
      return {
        kind: 'refused',
        reason: `${name}: "${text}" is an expansion the guard cannot resolve, so the command it runs is unknown`,
      };
    }
    if (text === '--') {
      i++;
      break;
    }
    if (!text.startsWith('-') || text === '-') break;
    const eq = text.indexOf('=');
    const optionName = text.startsWith('--') && eq !== -1 ? text.slice(0, eq) : text;
    const refusal = spec.refused?.[optionName] ?? spec.refused?.[text.slice(0, 2)];
    if (refusal) return { kind: 'refused', reason: refusal };
    if (spec.query?.includes(optionName)) return { kind: 'none' };
    if (text.startsWith('--')) {
      if (spec.longValue?.includes(optionName)) {
        const result =
          eq !== -1
            ? take(optionName, { text: text.slice(eq + 1), dynamic: false, glob: false })
            : take(optionName, args[++i]);
        if (result) return result;
        continue;
      }
      if (spec.long?.includes(text) || spec.anyLongOption) continue;
      return { kind: 'refused', reason: `${name} ${optionName} is not an option the guard knows` };
    }
    if (spec.numeric && /^-[0-9]+$/.test(text)) continue;
    for (let j = 1; j < text.length; j++) {
      const letter = text[j] as string;
      const refusedLetter = spec.refused?.[`-${letter}`];
      if (refusedLetter) return { kind: 'refused', reason: refusedLetter };
      if (spec.query?.includes(`-${letter}`)) return { kind: 'none' };
      if (shortValue.includes(letter)) {
        const rest = text.slice(j + 1);
        const result = rest
          ? take(`-${letter}`, { text: rest, dynamic: false, glob: false })
          : take(`-${letter}`, args[++i]);
        if (result) return result;
        break;
      }
      if (!short.includes(letter)) {
        return { kind: 'refused', reason: `${name} -${letter} is not an option the guard knows` };
      }
    }
  }
  if (spec.assignments) while (/^[A-Za-z_][A-Za-z0-9_]*=/.test(opt(args[i]))) i++;
  for (let n = 0; n < (spec.operands ?? 0); n++, i++) {
    const operand = args[i];
    if (!operand) return { kind: 'none' };
    if (operand.dynamic || operand.glob)
      return {
        kind: 'refused',
        reason: `${name}: "${operand.text}" is an expansion the guard cannot resolve, so the command it runs is unknown`,
      };
  }
  const words = args.slice(i);
  if (words.length === 0) return { kind: 'none' };
  // `flock FILE -c cmd`: options after the operands; the guard does not guess which they are.
  if (opt(words[0]).startsWith('-')) {
    return { kind: 'refused', reason: `${name}: cannot tell where the command starts at "${opt(words[0])}"` };
  }
  return { kind: 'command', words, ...(replace !== undefined ? { replace } : {}) };
}
