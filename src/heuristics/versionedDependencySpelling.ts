import { shellQuote } from '../process/shellQuote.ts';
import { firstMakefile, MAKE_COMMAND, withMakeVariables } from './makeCommandLine.ts';
import type { HeuristicContext, RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * A versioned command the build runs under another system's spelling, missing here: `lua53`,
 * `tclsh86` (FreeBSD's and pkgsrc's names, where Debian has `lua5.3`, `tclsh8.6`). Make's
 * "NAME: No such file or directory" or a shell's "NAME: not found".
 */
const MISSING_VERSIONED =
  /(?:^|[\s:'"`])([a-z][a-z_]*?[a-z])(\d)(\d{1,2}): (?:No such file or directory|(?:command )?not found)/m;
/** An assignment of a makefile: NAME ?= value (also =, :=, ::=), not in a recipe. */
const ASSIGNMENT = /^(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*(\?=|::=|:=|=)[ \t]*(.*?)[ \t]*$/gm;

interface Versioned {
  /** As the build spells it: lua53. */
  missing: string;
  base: string;
  version: string;
}

/** The spellings of one versioned name and its kin: lua53, luac53, lua5.3, lua-5.3. */
function spellings(base: string, major: string, minor: string): RegExp {
  return new RegExp(`(${base}[a-z]*)-?${major}\\.?${minor}(?![0-9])`);
}

/**
 * The makefile's settings for a versioned dependency in another system's spelling (`LUA ?=
 * lua53`, `LUAC ?= luac53`, `LUA_INCDIR ?= /usr/local/include/lua53`, `LUALIB ?= -L/usr/local/lib
 * -llua-5.3`), set on make's command line in Debian's: the commands as the sandbox has them
 * (`lua5.3`, `luac5.3`), the include folder and the libraries as pkg-config gives them for the
 * version. Only settings the sandbox answers for are set; the build runs again with them.
 */
export const versionedDependencySpelling: RecoveryHeuristic = {
  name: 'versioned-dependency-spelling',
  description:
    "set a makefile's settings for a versioned dependency (lua53, /usr/local/include/lua53) in Debian's spelling (lua5.3, pkg-config's flags)",
  match(ctx) {
    if (!MAKE_COMMAND.test(ctx.failure.command.trim())) return null;
    const found = MISSING_VERSIONED.exec(ctx.failure.output);
    if (!found) return null;
    const [, base, major, minor] = found as unknown as [string, string, string, string];
    return {
      key: `versioned-spelling:${base}${major}${minor}`,
      reason: `the build runs ${base}${major}${minor}, which is ${base}${major}.${minor} on Debian`,
    };
  },
  async apply(ctx, match) {
    const parsed = /^versioned-spelling:([a-z_]*?[a-z])(\d)(\d{1,2})$/.exec(match.key);
    if (!parsed) return { applied: false, description: 'not a versioned name', commands: [] };
    const [, base, major, minor] = parsed as unknown as [string, string, string, string];
    const versioned: Versioned = { missing: `${base}${major}${minor}`, base, version: `${major}.${minor}` };
    const makefile = await firstMakefile(ctx);
    if (!makefile)
      return { applied: false, description: 'no makefile to read the settings from', commands: [] };
    const pattern = spellings(base, major, minor);
    const settings = [...makefile.text.matchAll(ASSIGNMENT)]
      .map((m) => ({ name: m[1] as string, value: m[3] as string }))
      .filter((s) => pattern.test(s.value));
    const answers = await askSandbox(ctx, versioned, pattern, settings);
    const set = settings.flatMap((s) => {
      const value = debianSpelling(s, versioned, pattern, answers);
      return value === null ? [] : [`${s.name}=${shellQuote(value)}`];
    });
    if (set.length === 0)
      return {
        applied: false,
        description: `no setting of ${makefile.name} names ${versioned.missing} in a spelling the sandbox has`,
        commands: [],
      };
    const plan = withMakeVariables(ctx.plan, set);
    return {
      applied: true,
      description: `make runs with ${set.join(' ')} (${makefile.name} names ${versioned.missing}, Debian's is ${base}${versioned.version})`,
      commands: [],
      plan,
    };
  },
};

interface SandboxAnswers {
  /** Command name → whether the sandbox has it. */
  commands: Set<string>;
  cflags: string | null;
  libs: string | null;
}

/** The words of a value that look like a command with the version in another spelling. */
function commandWords(value: string, pattern: RegExp): string[] {
  return value.split(/\s+/).filter((w) => /^[a-z][a-z0-9._-]*$/.test(w) && pattern.test(w));
}

function withDot(word: string, v: Versioned, pattern: RegExp): string {
  return word.replace(pattern, `$1${v.version}`);
}

/** One run in the sandbox: which commands exist, and pkg-config's flags for the version. */
async function askSandbox(
  ctx: HeuristicContext,
  v: Versioned,
  pattern: RegExp,
  settings: readonly { value: string }[],
): Promise<SandboxAnswers> {
  const words = [
    ...new Set(settings.flatMap((s) => commandWords(s.value, pattern)).map((w) => withDot(w, v, pattern))),
  ];
  const modules = [`${v.base}${v.version}`, `${v.base}-${v.version}`];
  const script = [
    ...words.map((w) => `command -v ${shellQuote(w)} >/dev/null 2>&1 && echo "command ${w}"`),
    `for m in ${modules.map(shellQuote).join(' ')}; do if pkg-config --exists "$m" 2>/dev/null; then echo "cflags $(pkg-config --cflags "$m")"; echo "libs $(pkg-config --libs "$m")"; break; fi; done`,
    'true',
  ].join('\n');
  const result = await ctx.sandbox.run(['sh', '-c', script], { cwd: ctx.srcDir, timeoutMs: 120_000 });
  const lines = result.stdout.split('\n');
  const field = (name: string) => {
    const line = lines.find((l) => l.startsWith(`${name} `));
    return line === undefined ? null : line.slice(name.length + 1).trim();
  };
  return {
    commands: new Set(lines.filter((l) => l.startsWith('command ')).map((l) => l.slice(8).trim())),
    cflags: field('cflags'),
    libs: field('libs'),
  };
}

/** A setting's value in Debian's spelling, or null when the sandbox does not answer for it. */
function debianSpelling(
  setting: { name: string; value: string },
  v: Versioned,
  pattern: RegExp,
  answers: SandboxAnswers,
): string | null {
  const { name, value } = setting;
  if (/(^|\s)-l/.test(value)) return answers.libs || null;
  if (value.startsWith('/')) {
    if (!/INC/i.test(name)) return null;
    const include = answers.cflags
      ?.split(/\s+/)
      .find((f) => f.startsWith('-I'))
      ?.slice(2);
    return include ?? (answers.cflags !== null ? '/usr/include' : null);
  }
  const words = commandWords(value, pattern);
  if (words.length !== 1 || value.trim() !== words[0]) return null;
  const command = withDot(words[0] as string, v, pattern);
  return answers.commands.has(command) ? command : null;
}
