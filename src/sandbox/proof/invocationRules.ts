/**
 * Which invocations of the swapped programs can behave differently on x86_64 than on riscv64,
 * and which may safely run twice. The recorder (evidence/recorder.c) applies these rules inside
 * the sandbox; this module is their single source and classifies logged invocations the same way.
 *
 * Where x86_64 and riscv64 really differ for these programs (the census behind the rules):
 * - `long double` is the 80-bit x87 format on x86_64 and IEEE quad on riscv64: coreutils printf's
 *   floating conversions, seq, sort -g, numfmt and od's floating formats all parse and print
 *   through it, so `printf '%.30g' 0.1` prints other digits.
 * - libm's transcendental functions may round the last bit differently: awk's exp/log/sin/cos/
 *   atan2/sqrt and rand/srand.
 * - `char` is signed on x86_64 and unsigned on riscv64: a program that leaks it does so on bytes
 *   of 0x80 and above, so a filter given such bytes in its arguments is checked.
 * - bash and make carry the host type they were built for: HOSTTYPE, MACHTYPE, BASH_VERSINFO,
 *   `bash --version`, MAKE_HOST, `make --version` and `make -p`. Builtins and variables never reach
 *   the recorder, so they are looked for in the build's text (censusBuildText.ts).
 * Everything else these programs do is the same C code over the same bytes with 64-bit longs on
 * both machines; that part is checked by a seeded random sample.
 */

export interface ProgramRule {
  /** True when running it twice has no effect beyond its stdout, stderr and exit status. */
  filter: boolean;
  /** An ERE tried on each argument: a hit makes the invocation machine-dependent; `*` always. */
  machine?: string;
  /**
   * An ERE tried on the program's own leading options only (the arguments before its first
   * operand or `--`): `bash --version` prints the host type, `bash missing makeinfo --version`
   * runs a script that is given `--version`.
   */
  machineOption?: string;
  /**
   * An ERE tried on each argument: a hit makes the invocation unsafe to repeat. `!ERE`: unsafe
   * unless every argument (at least one) matches.
   */
  unsafe?: string;
  /**
   * Never reads standard input, whatever its arguments: the recorder hands both runs stdin as it
   * is instead of capturing it (a writer that holds the pipe open cannot stop the double run).
   */
  ignoresStdin?: boolean;
}

const FLOAT_CONVERSION = "%[-+ #0'I]*([0-9]+|[*])?([.]([0-9]+|[*])?)?[hlLqjzt]*[aAeEfFgG]";

const FILTERS = [
  '[',
  'b2sum',
  'base32',
  'base64',
  'basename',
  'basenc',
  'cat',
  'cksum',
  'cmp',
  'comm',
  'cut',
  'diff',
  'diff3',
  'dirname',
  'echo',
  'expand',
  'expr',
  'factor',
  'false',
  'fmt',
  'fold',
  'grep',
  'head',
  'id',
  'join',
  'md5sum',
  'nl',
  'nproc',
  'paste',
  'pr',
  'printenv',
  'pwd',
  'readlink',
  'realpath',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'sum',
  'tac',
  'test',
  'tr',
  'true',
  'tsort',
  'unexpand',
  'wc',
  'whoami',
];

const AWK: ProgramRule = {
  filter: true,
  // the builtins by name, not inside a longer one: automake's tap-driver defines
  // copy_in_global_log(), which is no log()
  machine: '(^|[^A-Za-z0-9_])(s?rand|exp|log|sin|cos|atan2|sqrt)[[:space:]]*[(]',
  unsafe: '^-f|^--file|system|getline|[|]|print[^;]*>',
};

/** Filters that take all they need from their arguments and the file system, never from stdin. */
const IGNORE_STDIN = new Set([
  '[',
  'basename',
  'dirname',
  'echo',
  'expr',
  'false',
  'id',
  'nproc',
  'printenv',
  'pwd',
  'readlink',
  'realpath',
  'test',
  'true',
  'whoami',
]);

export const PROGRAM_RULES: Readonly<Record<string, ProgramRule>> = {
  ...Object.fromEntries(
    [...FILTERS, 'egrep', 'fgrep'].map((name) => [
      name,
      IGNORE_STDIN.has(name) ? { filter: true, ignoresStdin: true } : { filter: true },
    ]),
  ),
  printf: { filter: true, machine: FLOAT_CONVERSION, ignoresStdin: true },
  seq: { filter: true, machine: '*', ignoresStdin: true },
  numfmt: { filter: true, machine: '*' },
  sort: {
    filter: true,
    machine: '^-[a-zA-Z]*g|^--general-numeric|^--sort=g|^-k.*g|^[0-9]+([.][0-9]+)?[a-zA-Z]*g',
    unsafe: '^-[a-zA-Z]*[oR]|^--(output|random|compress)',
  },
  od: { filter: true, machine: '^-t.*f|^-[a-zA-Z]*[fFeD]|^--format=.*f|^f[0-9LFD]*$' },
  tail: { filter: true, unsafe: '^-[a-zA-Z0-9]*[fF]|^--(follow|retry)' },
  sed: {
    filter: true,
    // in-place editing, script files, and the w, W and e commands (s///w too) write or run things
    unsafe:
      '^-[a-zA-Z]*[if]|^--(in-place|file)|(^|[;{}[:space:]0-9$/])[wWe]([[:space:]]|$)|/[gpIiMm0-9]*[we][[:space:]]',
  },
  awk: AWK,
  mawk: AWK,
  make: {
    filter: true,
    machine: '^(-v|--version|-p|--print-data-base)$|^-[a-zA-Z]*p[a-zA-Z]*$',
    unsafe: '!^(-v|--version)$',
  },
  bash: {
    filter: true,
    machine: 'HOSTTYPE|MACHTYPE|BASH_VERSINFO',
    machineOption: '^--version$',
    unsafe: '!^--version$',
  },
};

export type InvocationClass = 'machine' | 'sample' | 'plain';

export interface Classification {
  /** `machine`: may depend on the machine; otherwise `plain` (the sample is decided apart). */
  machine: boolean;
  /** May be run a second time (under the riscv64 program) without any effect on the build. */
  replayable: boolean;
}

/** The recorder's POSIX ERE in JavaScript's syntax (the rules use only the common subset). */
function jsRegExp(ere: string): RegExp {
  return new RegExp(ere.replaceAll('[:space:]', '\\s'));
}

/** A broken pattern counts as a hit, as it does in the recorder. */
function anyArgMatches(ere: string | undefined, args: readonly string[]): boolean {
  if (ere === undefined) return false;
  if (ere === '*') return true;
  let re: RegExp;
  try {
    re = jsRegExp(ere);
  } catch {
    return true;
  }
  return args.some((a) => re.test(a));
}

/** The arguments before the first operand (one not starting with `-`) or `--`. */
function leadingOptions(args: readonly string[]): string[] {
  const end = args.findIndex((a) => a === '--' || !a.startsWith('-'));
  return [...(end === -1 ? args : args.slice(0, end))];
}

function unsafeArgs(rule: string | undefined, args: readonly string[]): boolean {
  if (rule === undefined) return false;
  if (!rule.startsWith('!')) return anyArgMatches(rule, args);
  if (args.length === 0) return true;
  const re = jsRegExp(rule.slice(1));
  return !args.every((a) => re.test(a));
}

/** How the recorder treats `name args…` (args without argv[0]). */
export function classifyInvocation(name: string, args: readonly string[]): Classification {
  const rule = PROGRAM_RULES[name];
  const filter = rule?.filter === true;
  const highBytes = args.some((a) => [...Buffer.from(a, 'latin1')].some((b) => b >= 0x80));
  return {
    machine:
      rule !== undefined &&
      (anyArgMatches(rule.machine, args) ||
        anyArgMatches(rule.machineOption, leadingOptions(args)) ||
        (filter && highBytes)),
    replayable: filter && !unsafeArgs(rule?.unsafe, args),
  };
}

function fnv(hash: number, text: string): number {
  let h = hash;
  for (const byte of [...Buffer.from(text, 'latin1'), 0]) {
    h ^= byte;
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h;
}

/**
 * The recorder's sampling hash: FNV-1a over seed, process id, program, cwd and arguments, each
 * NUL-ended (the process id makes identical calls over changing files separate draws).
 */
export function samplingHash(
  seed: number,
  pid: number,
  name: string,
  cwd: string,
  args: readonly string[],
): number {
  let h = fnv(2166136261, String(seed));
  h = fnv(h, String(pid));
  h = fnv(h, name);
  h = fnv(h, cwd);
  for (const arg of args) h = fnv(h, arg);
  return h;
}

/** Whether the seeded sample (`perMille` of the invocations) picks this one. */
export function isSampled(
  seed: number,
  perMille: number,
  pid: number,
  name: string,
  cwd: string,
  args: readonly string[],
): boolean {
  return perMille > 0 && samplingHash(seed, pid, name, cwd, args) % 1000 < perMille;
}

export interface RulesOptions {
  /** Invocations in a thousand that are run twice although nothing marks them machine-dependent. */
  samplePerMille: number;
  seed?: number;
  log?: string;
  seedFile?: string;
  native?: string;
  twinSuffix?: string;
  /**
   * `reversed`: the twins run under qemu-user, which hands its guest the environment in the
   * reverse order; the recorder hands it over reversed so that the guest sees the x86_64 order.
   */
  twinEnvironment?: 'same' | 'reversed';
}

/** The recorder's rules file. */
export function renderRules(options: RulesOptions): string {
  const lines = [
    ['log', options.log ?? '/var/lib/rvport-evidence/calls.log'],
    ['seed-file', options.seedFile ?? '/var/lib/rvport-evidence/seed'],
    ['native', options.native ?? '/native'],
    ['twin-suffix', options.twinSuffix ?? '.riscv64'],
    ['twin-env', options.twinEnvironment ?? 'same'],
    ['seed', String(options.seed ?? 1)],
    ['sample', String(options.samplePerMille)],
    ...Object.entries(PROGRAM_RULES)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, rule]) => [
        'prog',
        name,
        rule.filter ? 'filter' : 'effect',
        rule.machine ?? '-',
        rule.unsafe ?? '-',
        rule.machineOption ?? '-',
        rule.ignoresStdin ? 'no-stdin' : 'stdin',
      ]),
  ];
  for (const line of lines)
    if (line.some((field) => /[\t\n]/.test(field))) throw new Error(`a rule may not hold a tab: ${line}`);
  return `${lines.map((l) => l.join('\t')).join('\n')}\n`;
}
