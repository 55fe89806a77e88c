import { posix } from 'node:path';
import type { CommandVerdict } from './CommandVerdict.ts';
import {
  ESCAPE_COMMANDS,
  INTERPRETERS,
  NETWORK_COMMANDS,
  NETWORK_SUBCOMMANDS,
  PRIVILEGE_COMMANDS,
  SHELLS,
} from './commandRules.ts';
import { checkInspectCommand } from './inspectCommands.ts';
import { parseShell, type Redirection, type ShellWord, type SimpleCommand } from './parseShell.ts';
import { STDIN_PATH, shellScriptOf } from './shellScriptOf.ts';
import { OPAQUE_RUNNERS, unwrapCommand, WRAPPERS } from './wrapperCommands.ts';

/**
 * `fix`: a command the fixer wants run in the sandbox during a build — anything but leaving the
 * sandbox, touching /native, changing privileges or, unless `allowNetwork`, the network.
 * `inspect`: the fixer's read-only round — only commands from the allow-list, writing nothing.
 */
export type GuardMode = 'fix' | 'inspect';

export interface GuardOptions {
  mode?: GuardMode;
  /** Steps that legitimately fetch (acquiring sources) may use network tools. Never during a build. */
  allowNetwork?: boolean;
}

const ALLOWED: CommandVerdict = { allowed: true };
const refuse = (reason: string): CommandVerdict => ({ allowed: false, reason });
const MAX_NESTING = 4;
const MAX_COMMAND_LENGTH = 20_000;

/**
 * Checks one proposed shell command line. Conservative: what cannot be read with certainty (an
 * expansion in command position, `eval`, a syntax it does not know) is refused with the reason.
 * This is defence in depth; the sandbox itself remains the boundary.
 */
export function guardCommand(command: string, options: GuardOptions = {}): CommandVerdict {
  return checkSource(
    command,
    { mode: options.mode ?? 'fix', allowNetwork: options.allowNetwork ?? false },
    0,
  );
}

interface Context {
  mode: GuardMode;
  allowNetwork: boolean;
}

function checkSource(source: string, context: Context, depth: number): CommandVerdict {
  if (depth > MAX_NESTING) return refuse('nested shell commands go too deep to check');
  if (source.length > MAX_COMMAND_LENGTH) return refuse('the command is too long to check');
  if (source.includes('\0')) return refuse('the command contains a NUL byte');
  const result = parseShell(source);
  if (!result.ok) return refuse(`cannot be checked: ${result.error}`);
  const { commands, substitutions } = result.parsed;
  if (context.mode === 'inspect' && substitutions.length > 0) {
    return refuse('command substitution is not allowed in a read-only inspection');
  }
  for (const substitution of substitutions) {
    const verdict = checkSource(substitution, context, depth + 1);
    if (!verdict.allowed) return refuse(`in a substitution: ${verdict.reason}`);
  }
  for (const command of commands) {
    const verdict =
      context.mode === 'inspect' ? checkInspectCommand(command) : checkFixCommand(command, context, depth);
    if (!verdict.allowed) return verdict;
  }
  return ALLOWED;
}

// ---------------------------------------------------------------------------------------------
// Fix commands

/**
 * `$((x))`, `$[x]`, `${a[x]}`, `${s:x}`: bash evaluates a variable's value as arithmetic, and
 * `b[$(cmd)]` in that value runs cmd; `${x@P}` expands x as a prompt, command substitutions and all.
 */
const ARITHMETIC_ON_NAMES =
  /\$\(\([^)]*[A-Za-z_]|\$\[[^\]]*[A-Za-z_]|\$\{[^}]*\[[^\]]*[A-Za-z_]|\$\{[A-Za-z_][A-Za-z0-9_]*:(?![-=+?])[^}]*[A-Za-z_]|\$\{[^}]*@P/;
/** Builtins that evaluate their arguments as arithmetic. */
const ARITHMETIC_BUILTINS = new Set(['let', '[[']);

function checkFixCommand(command: SimpleCommand, context: Context, depth: number): CommandVerdict {
  for (const word of [...command.assignments, ...command.words]) {
    if (word.dynamic && ARITHMETIC_ON_NAMES.test(word.text)) {
      return refuse(`arithmetic on variables (${word.text}) can run commands and cannot be checked`);
    }
  }
  const name = command.words[0]?.text ?? '';
  if (ARITHMETIC_BUILTINS.has(name)) return refuse(`${name} evaluates arithmetic that can run commands`);
  if (
    /^(declare|typeset|local|export|readonly)$/.test(name) &&
    command.words.some((w) => /^-[a-zA-Z]*i/.test(w.text))
  ) {
    return refuse(`${name} -i evaluates arithmetic that can run commands`);
  }
  const builtin = checkShellBuiltin(command.words, context, depth);
  if (builtin) return builtin;
  for (const redirection of command.redirections) {
    const verdict = checkRedirection(redirection);
    if (!verdict.allowed) return verdict;
  }
  return checkWords(command.words, context, depth, command);
}

/** bash builtins whose variable-name arguments are evaluated, array subscript and all. */
const NAME_EVALUATING_BUILTINS = new Set([
  'printf',
  'read',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'unset',
  'mapfile',
  'readarray',
  'test',
  '[',
  'wait',
  'getopts',
]);

/**
 * Shell builtins that run or redefine commands: `trap` runs its first argument later, `alias`
 * and `hash -p` make a harmless name run another program, and bash evaluates the subscript of
 * `a[$(cmd)]` given to printf -v, read, declare, unset, test -v ….
 */
function checkShellBuiltin(
  words: readonly ShellWord[],
  context: Context,
  depth: number,
): CommandVerdict | undefined {
  const name = words[0]?.text ?? '';
  if (name === 'alias') return refuse('alias can make one command name run another');
  if (name === 'hash' && words.some((w) => /^-[a-zA-Z]*p/.test(w.text)))
    return refuse('hash -p makes one command name run another program');
  if (name === 'enable') return refuse('enable loads or switches shell builtins');
  if (name === 'trap') {
    const action = words.slice(1).find((w) => !w.text.startsWith('-'));
    if (!action || /^[0-9]+$/.test(action.text)) return undefined;
    if (action.dynamic) return refuse('trap runs a command built from an expansion');
    const verdict = checkSource(action.text, context, depth + 1);
    return verdict.allowed ? undefined : refuse(`in trap: ${verdict.reason}`);
  }
  if (NAME_EVALUATING_BUILTINS.has(name) && words.some((w) => /\[.*(\$\(|`|\$\{|\$\[)/.test(w.text))) {
    return refuse(
      `${name}: bash evaluates an array subscript with a substitution in it, which runs commands`,
    );
  }
  return undefined;
}

/**
 * Checks the command the words run, unwrapping wrappers (`timeout 5 nice -n 5 make`) down to the
 * command itself. `command` is the simple command the words came from, for its standard input;
 * absent for commands run by find -exec or xargs.
 */
function checkWords(
  words: readonly ShellWord[],
  context: Context,
  depth: number,
  command?: SimpleCommand,
): CommandVerdict {
  let rest = words;
  // xargs -I R: R in the command name is replaced by its input.
  let replaced: string | undefined;
  for (;;) {
    const first = rest[0];
    if (!first) return ALLOWED;
    if (first.dynamic) return refuse(`the command name "${first.text}" comes from an expansion`);
    if (first.glob) return refuse(`the command name "${first.text}" is a pattern the shell would expand`);
    if (replaced !== undefined && first.text.includes(replaced)) {
      return refuse(`xargs -I ${replaced} puts its input into the command name`);
    }
    const name = commandName(first.text);
    const args = rest.slice(1);

    if (PRIVILEGE_COMMANDS.has(name)) return refuse(`${name} changes privileges`);
    const leaves =
      ESCAPE_COMMANDS[name] ?? (/^(mount|umount|mkfs)\./.test(name) ? 'touches file systems' : undefined);
    if (leaves) return refuse(`${name} ${leaves}; that leaves the sandbox`);
    if (name === 'eval') return refuse('eval cannot be checked');
    const opaque = OPAQUE_RUNNERS[name];
    if (opaque) return refuse(`${name} ${opaque}`);
    if (name === 'for' || name === 'select') return ALLOWED; // `for x in words`: no command here.

    if (!context.allowNetwork) {
      const network = networkUse(name, args);
      if (network) return refuse(`${network} uses the network, which builds do not have`);
    }

    if (name === 'busybox') {
      rest = args;
      continue;
    }
    if (WRAPPERS[name]) {
      const inner = unwrapCommand(name, args);
      if (inner.kind === 'refused') return refuse(inner.reason);
      if (inner.kind === 'none') return ALLOWED;
      if (inner.kind === 'script') {
        if (inner.source.dynamic) return refuse(`${name} runs a command built from an expansion`);
        const verdict = checkSource(inner.source.text, context, depth + 1);
        return verdict.allowed ? ALLOWED : refuse(`in ${name}: ${verdict.reason}`);
      }
      if (name === 'xargs') {
        const target = commandName(inner.words[0]?.text ?? '');
        if (SHELLS.has(target) || INTERPRETERS.test(target) || target === 'eval' || target === 'source') {
          return refuse(`xargs feeds its input to ${target}, which would run it`);
        }
        replaced = inner.replace;
      }
      // The wrapped command reads the wrapper's standard input (`exec sh <<EOF`).
      rest = inner.words;
      continue;
    }
    if ((name === 'cd' || name === 'pushd') && args.some((a) => NATIVE.test(normalisedPathWord(a.text)))) {
      return refuse(`${name} into /native would let the next command write there`);
    }
    const touched = touchedHostPath(name, rest);
    if (touched) return touched;

    if (name === 'rm' && args.some((a) => a.text === '--no-preserve-root' || /^\/+\*?$/.test(a.text))) {
      return refuse('rm would remove the whole root file system');
    }
    if (SHELLS.has(name)) return checkShellInvocation(name, args, context, depth, command);
    if (name === 'source' || name === '.') {
      const file = args[0];
      if (!file || file.dynamic || STDIN_PATH.test(file.text) || file.text === '-') {
        return refuse(`${name} would read its script from standard input or an expansion`);
      }
      return ALLOWED;
    }
    if (INTERPRETERS.test(name)) {
      const code = args.map((a) => a.text).join(' ');
      const mention = forbiddenMention(code, context);
      if (mention) return refuse(`inline ${name} code mentions ${mention}`);
    }
    if (name === 'find') return checkFindExec(args, context, depth);
    return checkEmbeddedCommands(name, args, context, depth);
  }
}

/** `/usr/bin/mount` is `mount`; `riscv64-linux-gnu-gcc` is `gcc`. */
function commandName(text: string): string {
  return posix.basename(text).replace(/^(riscv64|x86_64)-linux-gnu-/, '');
}

/** Options whose value is a command line the tool runs. */
const COMMAND_OPTIONS: Readonly<Record<string, RegExp>> = {
  tar: /^(--to-command|--use-compress-program|--rsh-command|--info-script|--new-volume-script|-I|-F)$/,
  sort: /^--compress-program$/,
  rsync: /^(-e|--rsh|--rsync-path)$/,
};
/** git -c settings that only change identity or output; any other may name a program to run. */
const SAFE_GIT_CONFIG =
  /^(user\.(name|email)|core\.(autocrlf|filemode|safecrlf)|init\.defaultbranch|advice\.[a-z]+|color\.[a-z.]+|safe\.directory|commit\.gpgsign|gc\.auto)=/i;

function checkEmbeddedCommands(
  name: string,
  args: readonly ShellWord[],
  context: Context,
  depth: number,
): CommandVerdict {
  if (name === 'git') {
    for (let i = 0; i < args.length; i++) {
      const text = args[i]?.text ?? '';
      if (!text.startsWith('-')) break;
      if (text === '-c') {
        const setting = args[i + 1];
        if (!setting || setting.dynamic || !SAFE_GIT_CONFIG.test(setting.text))
          return refuse(`git -c ${setting?.text ?? ''} may name a program for git to run`);
        i++;
      }
      if (text.startsWith('--config-env') || text.startsWith('--exec-path='))
        return refuse(`git ${text} may name a program for git to run`);
    }
    return ALLOWED;
  }
  const pattern = COMMAND_OPTIONS[name];
  if (!pattern) return ALLOWED;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as ShellWord;
    const eq = word.text.indexOf('=');
    const option = word.text.startsWith('--') && eq !== -1 ? word.text.slice(0, eq) : word.text;
    let value: ShellWord | undefined;
    if (word.text.startsWith('--checkpoint-action=')) {
      const action = word.text.slice('--checkpoint-action='.length);
      if (!action.startsWith('exec=')) continue;
      value = { ...word, text: action.slice('exec='.length) };
    } else if (pattern.test(option)) {
      value = eq !== -1 && option !== word.text ? { ...word, text: word.text.slice(eq + 1) } : args[++i];
    } else if (name === 'tar' && /^-[A-Za-z]*[IF]/.test(word.text) && !word.text.startsWith('--')) {
      return refuse(
        `tar ${word.text}: an option that names a program, bundled with others, cannot be checked`,
      );
    } else continue;
    if (!value) return refuse(`${name} ${option} needs a value`);
    if (value.dynamic) return refuse(`${name} ${option} runs a command built from an expansion`);
    const verdict = checkSource(value.text, context, depth + 1);
    if (!verdict.allowed) return refuse(`in ${name} ${option}: ${verdict.reason}`);
  }
  return ALLOWED;
}

function networkUse(name: string, args: readonly ShellWord[]): string | undefined {
  if (NETWORK_COMMANDS.has(name)) return name;
  if (name === 'rsync' && args.some((a) => /^[^/\s]*::|^[A-Za-z0-9_.@-]+:|^rsync:\/\//.test(a.text))) {
    return 'rsync to a remote host';
  }
  const subcommand = args.find((a) => !a.text.startsWith('-'))?.text;
  if (name === 'git' && subcommand === 'submodule') {
    const action = args.map((a) => a.text).find((t) => t !== 'submodule' && !t.startsWith('-'));
    return action === undefined || action === 'status' || action === 'summary' ? undefined : 'git submodule';
  }
  if (name === 'git' && subcommand === 'remote') {
    return args.some((a) => a.text === 'update') ? 'git remote update' : undefined;
  }
  const downloading = NETWORK_SUBCOMMANDS[name];
  if (subcommand && downloading?.has(subcommand)) {
    const offline = args.some((a) => ['--no-index', '--offline', '--frozen'].includes(a.text));
    return offline ? undefined : `${name} ${subcommand}`;
  }
  if (/^python[0-9.]*$/.test(name)) {
    const words = args.map((a) => a.text);
    const m = words.indexOf('-m');
    if (m >= 0 && /^pip[0-9]*$/.test(words[m + 1] ?? '') && /^(install|download)$/.test(words[m + 2] ?? '')) {
      return words.includes('--no-index') ? undefined : `python -m pip ${words[m + 2]}`;
    }
  }
  if (name === 'go' && subcommand === 'mod' && args.some((a) => a.text === 'download'))
    return 'go mod download';
  return undefined;
}

const NATIVE = /(^|[=:,\s])\/native(\/|$|\s)/;
const KERNEL_OR_DEVICE =
  /(^|[=:,\s])\/(proc\/sys|sys)(\/|$)|(^|[=:,\s])\/dev\/(?!(null|zero|full|stdin|stdout|stderr|random|urandom|tty|fd\/)\b)/;

/**
 * Any mention of /native, /proc/sys, /sys or a device by a command that could write. A command
 * the inspection round would run (its options all read-only) may read them.
 */
function touchedHostPath(name: string, words: readonly ShellWord[]): CommandVerdict | undefined {
  const readOnly = checkInspectCommand({
    assignments: [],
    words: [...words],
    redirections: [],
    piped: false,
  });
  if (readOnly.allowed && name !== 'cd') return undefined;
  for (const word of words.slice(1)) {
    const path = normalisedPathWord(word.text);
    if (NATIVE.test(path)) return refuse(`${name} touches /native, the read-only host toolchain`);
    if (KERNEL_OR_DEVICE.test(path))
      return refuse(`${name} touches kernel settings or devices (${word.text})`);
  }
  return undefined;
}

/** Collapses `//native`, `/./native`, `/x/../native` so spelling does not get past the check. */
function normalisedPathWord(text: string): string {
  return text.replace(
    /(^|[=:,])(\/[^\s=:,]*)/g,
    (_m, lead: string, path: string) => lead + posix.normalize(path),
  );
}

function checkRedirection(redirection: Redirection): CommandVerdict {
  const { op, target } = redirection;
  if (op === '<<' || op === '<<-' || op === '<<<') return ALLOWED;
  if ((op === '>&' || op === '<&') && /^([0-9]+|-)$/.test(target.text)) return ALLOWED;
  const writes = op !== '<';
  if (target.dynamic) return refuse(`the redirection target "${target.text}" comes from an expansion`);
  const path = target.text.startsWith('/') ? posix.normalize(target.text) : target.text;
  if (!writes) return ALLOWED;
  if (path === '/dev/null' || path === '/dev/stdout' || path === '/dev/stderr') return ALLOWED;
  if (NATIVE.test(path)) return refuse(`writes under /native (${target.text}), the read-only host toolchain`);
  if (/^\/(proc|sys|dev)(\/|$)/.test(path))
    return refuse(`writes kernel settings or devices (${target.text})`);
  return ALLOWED;
}

/** The last redirection of standard input wins; a pipe feeds it otherwise. */
function standardInput(command: SimpleCommand | undefined): Redirection | 'pipe' | undefined {
  const input = command?.redirections
    .filter((r) => (r.fd === undefined || r.fd === 0) && /^(<|<<|<<-|<<<|<&|<>)$/.test(r.op))
    .at(-1);
  return input ?? (command?.piped ? 'pipe' : undefined);
}

function checkShellInvocation(
  name: string,
  args: readonly ShellWord[],
  context: Context,
  depth: number,
  command: SimpleCommand | undefined,
): CommandVerdict {
  const script = shellScriptOf(name, args);
  if (script.kind === 'refused') return refuse(script.reason);
  if (script.kind === 'file') return ALLOWED; // `sh script.sh`: the script is sandbox content like any other.
  let source: string;
  let from: string;
  if (script.kind === 'string') {
    if (script.source.dynamic) return refuse(`${name} -c runs a command built from an expansion`);
    source = script.source.text;
    from = `${name} -c`;
  } else {
    const input = standardInput(command);
    if (input === undefined) return refuse(`${name} would read its script from standard input`);
    if (input === 'pipe')
      return refuse(`${name} would run the script a pipe gives it, which cannot be checked`);
    if (input.op === '<<<') {
      if (input.target.dynamic) return refuse(`${name} runs a here-string built from an expansion`);
      source = input.target.text;
    } else if (input.heredoc) {
      if (!input.heredoc.quoted && /[\\$`]/.test(input.heredoc.body)) {
        return refuse(`${name} runs an unquoted here-document with expansions, which cannot be checked`);
      }
      source = input.heredoc.body;
    } else {
      return refuse(
        `${name} reads its script from ${input.target.text} (${input.op}), which cannot be checked`,
      );
    }
    from = `the script ${name} reads`;
  }
  const verdict = checkSource(source, context, depth + 1);
  return verdict.allowed ? ALLOWED : refuse(`in ${from}: ${verdict.reason}`);
}

function checkFindExec(args: readonly ShellWord[], context: Context, depth: number): CommandVerdict {
  for (let i = 0; i < args.length; i++) {
    const text = args[i]?.text ?? '';
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(text)) continue;
    const end = args.findIndex((a, j) => j > i && (a.text === ';' || a.text === '+'));
    const inner = args.slice(i + 1, end === -1 ? args.length : end);
    if (inner[0]?.text.includes('{}'))
      return refuse(`in find ${text}: the command name comes from the files found ({})`);
    const verdict = checkWords(inner, context, depth + 1);
    if (!verdict.allowed) return refuse(`in find ${text}: ${verdict.reason}`);
    i = end === -1 ? args.length : end;
  }
  return ALLOWED;
}

function forbiddenMention(code: string, context: Context): string | undefined {
  const names = [
    ...Object.keys(ESCAPE_COMMANDS),
    ...PRIVILEGE_COMMANDS,
    ...(context.allowNetwork ? [] : NETWORK_COMMANDS),
  ];
  for (const name of names) {
    if (
      new RegExp(`(^|[^A-Za-z0-9_.-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_-]|$)`).test(
        code,
      )
    ) {
      return name;
    }
  }
  if (NATIVE.test(code) || code.includes("'/native") || code.includes('"/native')) return '/native';
  if (
    !context.allowNetwork &&
    /\b(urllib|urlopen|socket\.|http\.client|requests\.get|LWP::|IO::Socket|Net::HTTP)/.test(code)
  ) {
    return 'network access';
  }
  return undefined;
}

export interface CommandRefusal {
  command: string;
  reason: string;
}

export interface CommandReview {
  allowed: string[];
  refused: CommandRefusal[];
}

/** The fixer's inspection round: at most this many commands (seed: "a limit of 4"). */
export const MAX_INSPECTION_COMMANDS = 4;

/**
 * Sorts an LLM's proposed commands into those that may run and those refused with a reason; the
 * caller records the refusals (state audit trail, build log). An inspection round keeps only its
 * first four commands.
 */
export function reviewProposedCommands(
  commands: readonly string[],
  options: GuardOptions = {},
): CommandReview {
  const review: CommandReview = { allowed: [], refused: [] };
  commands.forEach((command, index) => {
    if (options.mode === 'inspect' && index >= MAX_INSPECTION_COMMANDS) {
      review.refused.push({
        command,
        reason: `only ${MAX_INSPECTION_COMMANDS} read-only commands per round`,
      });
      return;
    }
    const verdict = guardCommand(command, options);
    if (verdict.allowed) review.allowed.push(command);
    else review.refused.push({ command, reason: verdict.reason });
  });
  return review;
}
