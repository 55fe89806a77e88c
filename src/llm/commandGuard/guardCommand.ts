import { posix } from 'node:path';
import {
  ESCAPE_COMMANDS,
  INTERPRETERS,
  NETWORK_COMMANDS,
  NETWORK_SUBCOMMANDS,
  PRIVILEGE_COMMANDS,
  READ_ONLY_COMMANDS,
  SHELLS,
  TOOLCHAIN_COMMANDS,
  VERSION_FLAGS,
  WRAPPER_COMMANDS,
  WRAPPER_VALUE_OPTIONS,
} from './commandRules.ts';
import { parseShell, type Redirection, type ShellWord, type SimpleCommand } from './parseShell.ts';

export type CommandVerdict = { allowed: true } | { allowed: false; reason: string };

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
      context.mode === 'inspect' ? checkInspection(command) : checkFixCommand(command, context, depth);
    if (!verdict.allowed) return verdict;
  }
  return ALLOWED;
}

// ---------------------------------------------------------------------------------------------
// Fix commands

function checkFixCommand(command: SimpleCommand, context: Context, depth: number): CommandVerdict {
  for (const redirection of command.redirections) {
    const verdict = checkRedirection(redirection, false);
    if (!verdict.allowed) return verdict;
  }
  return checkWords(command.words, context, depth);
}

function checkWords(words: ShellWord[], context: Context, depth: number): CommandVerdict {
  let rest = words;
  for (;;) {
    const first = rest[0];
    if (!first) return ALLOWED;
    if (first.dynamic) return refuse(`the command name "${first.text}" comes from an expansion`);
    const name = commandName(first.text);
    const args = rest.slice(1);

    if (PRIVILEGE_COMMANDS.has(name)) return refuse(`${name} changes privileges`);
    const leaves =
      ESCAPE_COMMANDS[name] ?? (/^(mount|umount|mkfs)\./.test(name) ? 'touches file systems' : undefined);
    if (leaves) return refuse(`${name} ${leaves}; that leaves the sandbox`);
    if (name === 'eval') return refuse('eval cannot be checked');
    if (name === 'for' || name === 'select') return ALLOWED; // `for x in words`: no command here.

    if (!context.allowNetwork) {
      const network = networkUse(name, args);
      if (network) return refuse(`${network} uses the network, which builds do not have`);
    }

    if (WRAPPER_COMMANDS.has(name)) {
      if (name === 'command' && args[0] && /^-[vV]$/.test(args[0].text)) return ALLOWED;
      if (name === 'env' && args.some((a) => a.text === '-S' || a.text.startsWith('--split-string'))) {
        return refuse('env -S cannot be checked');
      }
      rest = skipWrapperOptions(name, args);
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
    if (SHELLS.has(name)) return checkShellInvocation(name, args, context, depth);
    if (INTERPRETERS.test(name)) {
      const code = args.map((a) => a.text).join(' ');
      const mention = forbiddenMention(code, context);
      if (mention) return refuse(`inline ${name} code mentions ${mention}`);
    }
    if (name === 'find') return checkFindExec(args, context, depth);

    return ALLOWED;
  }
}

/** `/usr/bin/mount` is `mount`; `riscv64-linux-gnu-gcc` is `gcc`. */
function commandName(text: string): string {
  return posix.basename(text).replace(/^(riscv64|x86_64)-linux-gnu-/, '');
}

function skipWrapperOptions(name: string, args: ShellWord[]): ShellWord[] {
  const valueOptions = WRAPPER_VALUE_OPTIONS[name] ?? new Set<string>();
  let i = 0;
  if (name === 'busybox') return args;
  while (i < args.length) {
    const text = args[i]?.text ?? '';
    if (text === '--') {
      i++;
      break;
    }
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
      i++;
      continue;
    }
    if (!text.startsWith('-') || text === '-') break;
    i += valueOptions.has(text) ? 2 : 1;
  }
  // `timeout 30 make`, `ionice`/`nice` numeric forms: the first non-option word is a duration.
  if (name === 'timeout' && i < args.length) i++;
  return args.slice(i);
}

function networkUse(name: string, args: ShellWord[]): string | undefined {
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

/** Any mention of /native, /proc/sys, /sys or a device by a command that is not read-only. */
function touchedHostPath(name: string, words: ShellWord[]): CommandVerdict | undefined {
  // Commands with argument rules (find -delete, sed -i, tar -x, …) can write, so they are checked.
  if (READ_ONLY_COMMANDS.has(name) && !READ_ONLY_ARGUMENT_RULES[name]) return undefined;
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

function checkRedirection(redirection: Redirection, inspect: boolean): CommandVerdict {
  const { op, target } = redirection;
  if (op === '<<' || op === '<<-' || op === '<<<') return ALLOWED;
  if ((op === '>&' || op === '<&') && /^([0-9]+|-)$/.test(target.text)) return ALLOWED;
  const writes = op !== '<';
  if (target.dynamic) return refuse(`the redirection target "${target.text}" comes from an expansion`);
  const path = target.text.startsWith('/') ? posix.normalize(target.text) : target.text;
  if (!writes) return ALLOWED;
  if (path === '/dev/null' || path === '/dev/stdout' || path === '/dev/stderr') return ALLOWED;
  if (inspect) return refuse(`a read-only inspection may not write ${target.text}`);
  if (NATIVE.test(path)) return refuse(`writes under /native (${target.text}), the read-only host toolchain`);
  if (/^\/(proc|sys|dev)(\/|$)/.test(path))
    return refuse(`writes kernel settings or devices (${target.text})`);
  return ALLOWED;
}

function checkShellInvocation(
  name: string,
  args: ShellWord[],
  context: Context,
  depth: number,
): CommandVerdict {
  const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a.text));
  if (c === -1) return ALLOWED; // `sh script.sh`: the script is sandbox content like any other.
  // The command string is the first operand after the options (`bash -c -- 'cmd'`, `sh -ec 'cmd'`).
  const script = args.slice(c + 1).find((a) => a.text !== '--' && !/^[-+][a-zA-Z]+$/.test(a.text));
  if (!script) return refuse(`${name} -c without a command`);
  if (script.dynamic) return refuse(`${name} -c runs a command built from an expansion`);
  const verdict = checkSource(script.text, context, depth + 1);
  return verdict.allowed ? ALLOWED : refuse(`in ${name} -c: ${verdict.reason}`);
}

function checkFindExec(args: ShellWord[], context: Context, depth: number): CommandVerdict {
  for (let i = 0; i < args.length; i++) {
    const text = args[i]?.text ?? '';
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(text)) continue;
    const end = args.findIndex((a, j) => j > i && (a.text === ';' || a.text === '+'));
    const inner = args.slice(i + 1, end === -1 ? args.length : end);
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

// ---------------------------------------------------------------------------------------------
// Read-only inspection

function checkInspection(command: SimpleCommand): CommandVerdict {
  if (command.assignments.length > 0)
    return refuse('variable assignments are not allowed in a read-only inspection');
  for (const redirection of command.redirections) {
    const verdict = checkRedirection(redirection, true);
    if (!verdict.allowed) return verdict;
  }
  const [first, ...args] = command.words;
  if (!first) return ALLOWED;
  if (first.dynamic) return refuse(`the command name "${first.text}" comes from an expansion`);
  const name = commandName(first.text);
  const texts = args.map((a) => a.text);
  if (TOOLCHAIN_COMMANDS.has(name) && texts.length === 1 && VERSION_FLAGS.has(texts[0] ?? '')) return ALLOWED;
  if (/^(gcc|g\+\+|cc|c\+\+|cpp|clang|clang\+\+)$/.test(name) && texts.includes('-E')) {
    const writes = texts.find((t) =>
      /^(-o|-M|-save-temps|-fdump|-fplugin|-Wp,|-Xpreprocessor|--output|-specs)/.test(t),
    );
    return writes ? refuse(`${name} ${writes} writes files or loads code`) : ALLOWED;
  }
  if (name === 'command' && /^-[vV]$/.test(texts[0] ?? '')) return ALLOWED;
  if (!READ_ONLY_COMMANDS.has(name)) return refuse(`${name} is not a read-only inspection command`);
  const problem = READ_ONLY_ARGUMENT_RULES[name]?.(texts);
  return problem ? refuse(`${name}: ${problem}`) : ALLOWED;
}

const hasAny = (texts: string[], pattern: RegExp) => texts.find((t) => pattern.test(t));

/** Read-only commands with options that write, follow forever or run other programs. */
const READ_ONLY_ARGUMENT_RULES: Readonly<Record<string, (args: string[]) => string | undefined>> = {
  find: (a) => {
    const bad = hasAny(a, /^-(exec|execdir|ok|okdir|delete|fprint0?|fprintf|fls)$/);
    return bad ? `${bad} runs commands or writes files` : undefined;
  },
  sed: (a) => {
    if (hasAny(a, /^(-i|--in-place)/)) return 'edits files in place';
    if (!a.includes('-n')) return 'only `sed -n ADDRESSp FILE` is allowed';
    const script = a.find((t) => !t.startsWith('-'));
    return script && /^([0-9]+|\$)(,([0-9]+|\$))?p$|^\/[^/]*\/(,\/[^/]*\/)?p$/.test(script)
      ? undefined
      : 'only `sed -n ADDRESSp FILE` is allowed';
  },
  git: (a) =>
    /^(log|show|diff|status|ls-files|grep|rev-parse|describe|blame|shortlog|ls-tree|cat-file)$/.test(
      a[0] ?? '',
    ) && !hasAny(a, /^--(output|ext-diff|textconv)|^--exec/)
      ? undefined
      : 'only read-only sub-commands (log, show, diff, status, ls-files, grep, …) are allowed',
  tar: (a) => {
    const listing = a.includes('-t') || a.includes('--list') || /^-?[A-Za-z]*t[A-Za-z]*$/.test(a[0] ?? '');
    const bad = hasAny(
      a,
      /^(-[A-Za-z]*[xcruA]|--(extract|get|create|append|update|delete|to-command|use-compress-program|rsh-command|info-script|new-volume-script|checkpoint-action)|-I$|-F$)/,
    );
    return listing && !bad ? undefined : 'only listing an archive (tar -t) is allowed';
  },
  dpkg: (a) =>
    a.length > 0 &&
    /^(-l|-L|-S|-s|-p|--list|--listfiles|--search|--status|--print-avail|--print-architecture|--print-foreign-architectures|--get-selections)$/.test(
      a[0] ?? '',
    )
      ? undefined
      : 'only queries (-l, -L, -S, -s, --print-architecture) are allowed',
  'dpkg-architecture': (a) => (hasAny(a, /^(-c|--command)/) ? 'runs a command' : undefined),
  'apt-file': (a) =>
    /^(search|find|list|show)$/.test(a[0] ?? '') ? undefined : 'only search and list are allowed',
  sort: (a) =>
    hasAny(a, /^(-o|--output|--compress-program)/) ? 'writes a file or runs a program' : undefined,
  uniq: (a) =>
    a.filter((t) => !t.startsWith('-')).length > 1 ? 'a second file argument is written' : undefined,
  tail: (a) => (hasAny(a, /^(-f|-F|--follow|--retry)/) ? 'following a file never ends' : undefined),
  tree: (a) => (hasAny(a, /^-o$|^--output/) ? 'writes a file' : undefined),
  file: (a) => (hasAny(a, /^(-C|--compile)$/) ? 'writes a magic file' : undefined),
  rg: (a) => (hasAny(a, /^--pre/) ? 'runs a preprocessor program' : undefined),
  env: (a) => (a.length > 0 ? 'only plain `env` (print the environment) is allowed' : undefined),
};

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
