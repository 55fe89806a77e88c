import { installNamedDependency, keyOf, type NamedDependency, parseKey } from './installNamedDependency.ts';
import { namedInMessage } from './namedInMessage.ts';
import type { HeuristicContext, HeuristicMatch, RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { readTreeFile } from './readTreeFile.ts';

const CONFIGURE_ERROR = /^configure: error: (.*)$/m;
/** Where configure may have written config.log, relative to the build's folder. */
const CONFIG_LOGS = ['config.log', 'build/config.log', '_build/config.log'];
const NAME = '[A-Za-z0-9_][\\w+.-]*';

/**
 * The checks that answered `no` right before the error, latest first (a check that answered
 * anything else ends them: earlier `no`s, such as libtool's `checking for mt... no`, did not stop
 * configure).
 */
function fromChecks(before: string): NamedDependency[] {
  const out: NamedDependency[] = [];
  const lines = before.trimEnd().split('\n').reverse().slice(0, 6);
  for (const line of lines) {
    const failed = /^checking for (.+?)\.\.\. no\s*$/.exec(line);
    if (!failed) {
      if (/^checking /.test(line)) break;
      continue;
    }
    const what = failed[1] as string;
    const header = /^([\w+./-]+\.(?:h|hh|hpp|hxx))$/.exec(what);
    const library = new RegExp(`^${NAME} in -l(${NAME})$`).exec(what);
    // AC_CHECK_PROG and AC_PATH_PROG print the program's name alone
    const program = new RegExp(`^(${NAME})$`).exec(what);
    if (header) out.push({ kind: 'header', name: header[1] as string });
    else if (library) out.push({ kind: 'library', name: library[1] as string });
    else if (program && /[a-z]/.test(what)) out.push({ kind: 'command', name: program[1] as string });
  }
  return out;
}

/**
 * What the last failed checks of config.log tried: the compiler's missing header, the linker's
 * missing library, pkg-config's missing module. The check that stopped configure is the last one.
 */
export function fromConfigLog(log: string): NamedDependency[] {
  const end = log.search(/^## -+ ##\n## Cache variables\. ##/m);
  const checks = (end === -1 ? log : log.slice(0, end)).split(/^configure:\d+: checking /m).slice(1);
  for (const check of checks.slice(-3).reverse()) {
    const out: NamedDependency[] = [];
    for (const m of check.matchAll(/fatal error: ([\w+./-]+): No such file or directory/g))
      out.push({ kind: 'header', name: m[1] as string });
    for (const m of check.matchAll(new RegExp(`cannot find -l(${NAME}?)(?::|\\s|$)`, 'gm')))
      out.push({ kind: 'library', name: m[1] as string });
    for (const m of check.matchAll(new RegExp(`No package '(${NAME})' found`, 'g')))
      out.push({ kind: 'pkgconfig', name: m[1] as string });
    if (out.length > 0) return out;
  }
  return [];
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
    const error = CONFIGURE_ERROR.exec(out);
    if (!error) return null;
    const message = error[1] as string;
    const { named, words } = namedInMessage(message);
    let log: string | null = null;
    for (const rel of CONFIG_LOGS) {
      log = await readTreeFile(ctx, rel);
      if (log) break;
    }
    const wanted = unique([
      ...named,
      ...fromChecks(out.slice(0, error.index)),
      ...(log ? fromConfigLog(log) : []),
      ...words,
    ]).slice(0, 8);
    if (wanted.length === 0) return null;
    return { key: keyOf(wanted), reason: `configure: error: ${message.trim()}` };
  },
  apply(ctx, match) {
    return installNamedDependency(ctx, parseKey(match.key), 'configure looked for');
  },
};
