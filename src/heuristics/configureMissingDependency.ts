import { installNamedDependency, keyOf, type NamedDependency, parseKey } from './installNamedDependency.ts';
import { namedInMessage } from './namedInMessage.ts';
import type { HeuristicContext, HeuristicMatch, RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { readConfigLog } from './readTreeFile.ts';

const CONFIGURE_ERROR = /^configure: error: (.*)$/m;
/**
 * A notice block some configure scripts print before `exit 1` instead of AC_MSG_ERROR
 * (`configure: *** Building this package requires DAHDI support. ***`): its first line that
 * asks for something starts the message.
 */
const NOTICE_LINE = /^configure: \*+ *(.*?) *\**\s*$/;
const ASKS = /\b(requires?|install|not found|missing|needs?)\b/i;
/** Words of a message that say nothing about which dependency is meant. */
const PLAIN_WORDS = new Set(
  'building build this that package packages requires require required support please install installed the found missing need needs with without version development files library libraries header headers and for from'.split(
    ' ',
  ),
);
const NAME = '[A-Za-z0-9_][\\w+.-]*';

/**
 * The checks that answered `no` right before the error, latest first (a check that answered
 * anything else ends them: earlier `no`s, such as libtool's `checking for mt... no`, did not stop
 * configure).
 */
function fromChecks(before: string): NamedDependency[] {
  const out: NamedDependency[] = [];
  for (const line of before.trimEnd().split('\n').reverse().slice(0, 6)) {
    if (!FAILED_CHECK.test(line)) {
      if (/^checking /.test(line)) break;
      continue;
    }
    const wanted = checkedFor(line);
    if (wanted) out.push(wanted);
  }
  return out;
}

const FAILED_CHECK = /^checking for (.+?)\.\.\. no\s*$/;

/** What a failed `checking for …` line looked for: a header, a library, a program. */
function checkedFor(line: string): NamedDependency | null {
  const what = FAILED_CHECK.exec(line)?.[1];
  if (!what) return null;
  // AC_CHECK_HEADER prints the header; AC_CHECK_DECL-like checks `SYMBOL in header.h`
  const header = /^(?:\w+ in )?([\w+./-]+\.(?:h|hh|hpp|hxx))$/.exec(what);
  const library = new RegExp(`^${NAME} in -l(${NAME})$`).exec(what);
  // AC_CHECK_PROG and AC_PATH_PROG print the program's name alone
  const program = new RegExp(`^(${NAME})$`).exec(what);
  if (header) return { kind: 'header', name: header[1] as string };
  if (library) return { kind: 'library', name: library[1] as string };
  if (program && /[a-z]/.test(what)) return { kind: 'command', name: program[1] as string };
  return null;
}

/** Where configure stopped, in its own words: `configure: error:`, else a notice block it printed. */
export function configureStop(out: string): { message: string; index: number; line: string } | null {
  const error = CONFIGURE_ERROR.exec(out);
  if (error) return { message: error[1] as string, index: error.index, line: error[0].trim() };
  const lines = out.split('\n');
  const first = lines.findIndex((l) => NOTICE_LINE.test(l) && ASKS.test(l));
  if (first === -1) return null;
  const block: string[] = [];
  for (const line of lines.slice(first)) {
    const text = NOTICE_LINE.exec(line)?.[1];
    if (text === undefined) break;
    if (text) block.push(text);
  }
  const message = block.join(' ');
  return { message, index: lines.slice(0, first).join('\n').length, line: `configure: *** ${message}` };
}

/**
 * Failed checks anywhere before the stop whose subject shares a word with the message (`checking
 * for DAHDI_CODE in dahdi/user.h... no` for "requires DAHDI support"): configure may have gone on
 * checking other things after the one that mattered.
 */
function relatedChecks(before: string, message: string): NamedDependency[] {
  const words = [...message.toLowerCase().matchAll(/[a-z][a-z0-9]{2,}/g)]
    .map((m) => m[0])
    .filter((w) => !PLAIN_WORDS.has(w));
  if (words.length === 0) return [];
  return before
    .split('\n')
    .filter((line) => words.some((w) => line.toLowerCase().includes(w)))
    .map(checkedFor)
    .filter((w): w is NamedDependency => w !== null)
    .reverse();
}

/**
 * What the last failed checks of config.log tried: the compiler's missing header, the linker's
 * missing library, pkg-config's missing module. The check that stopped configure is the last one.
 */
export function fromConfigLog(log: string): NamedDependency[] {
  const end = log.search(/^## -+ ##\n## Cache variables\. ##/m);
  const checks = (end === -1 ? log : log.slice(0, end)).split(/^configure:\d+: checking /m).slice(1);
  const subject = (check: string) => check.slice(0, check.indexOf('\n'));
  for (let last = checks.length - 1; last >= Math.max(0, checks.length - 3); last--) {
    const latest = checks[last] as string;
    const out = wantedIn(latest);
    if (out.length === 0) continue;
    // a check made again under the same name tried an alternative first (PKG_CHECK_MODULES of
    // json-c, then of the legacy json): the alternatives are wanted too, latest first
    const alternatives = checks
      .slice(0, last)
      .filter((c) => subject(c) === subject(latest))
      .reverse()
      .flatMap(wantedIn);
    return [...out, ...alternatives];
  }
  return [];
}

/** What one config.log check lacked: the compiler's header, the linker's library, pkg-config's module. */
function wantedIn(check: string): NamedDependency[] {
  const out: NamedDependency[] = [];
  for (const m of check.matchAll(/fatal error: ([\w+./-]+): No such file or directory/g))
    out.push({ kind: 'header', name: m[1] as string });
  for (const m of check.matchAll(new RegExp(`cannot find -l(${NAME}?)(?::|\\s|$)`, 'gm')))
    out.push({ kind: 'library', name: m[1] as string });
  // pkg-config says `No package 'x' found`; pkgconf says `Package 'x', required by 'virtual:world', not found`
  for (const m of check.matchAll(
    new RegExp(`No package '(${NAME})' found|Package '(${NAME})', required by '[^']*', not found`, 'g'),
  ))
    out.push({ kind: 'pkgconfig', name: (m[1] ?? m[2]) as string });
  return out;
}

function unique(list: NamedDependency[]): NamedDependency[] {
  const seen = new Set<string>();
  return list.filter((w) => {
    const key = `${w.kind}:${w.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * configure stopped at a dependency in its own words (`configure: error: libidn was not
 * found`, after `checking for idn/idn.h... no`): the names the message, the failed checks and
 * config.log's last failed checks give, each resolved through the analysis's dependency list or
 * the Contents index, and the first package found is installed.
 */
export const configureMissingDependency: RecoveryHeuristic = {
  name: 'configure-missing-dependency',
  description: "install the Debian package of the dependency configure's error and config.log name",
  async match(ctx: HeuristicContext): Promise<HeuristicMatch | null> {
    const out = ctx.failure.output;
    const stop = configureStop(out);
    if (!stop) return null;
    const { message } = stop;
    const { named, words } = namedInMessage(message);
    const log = await readConfigLog(ctx);
    const wanted = unique([
      ...named,
      ...fromChecks(out.slice(0, stop.index)),
      ...relatedChecks(out.slice(0, stop.index), message),
      ...(log ? fromConfigLog(log) : []),
      ...words,
    ]).slice(0, 8);
    if (wanted.length === 0) return null;
    return { key: keyOf(wanted), reason: stop.line };
  },
  apply(ctx, match) {
    return installNamedDependency(ctx, parseKey(match.key), 'configure looked for');
  },
};
