import { posix } from 'node:path';
import { shellQuote } from '../process/shellQuote.ts';
import { DOC_DIR } from './failingDirectory.ts';
import { withoutSubdirCommand, withPrepareCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * automake: `Makefile.am:19: error: required directory ./doc does not exist`; below the top the
 * folder is named from the top (`doc/Makefile.am:1: error: required directory doc/manual does
 * not exist`).
 */
const MISSING_DIRECTORY =
  /^([\w./+-]*Makefile\.am):(\d+): error: required directory ([\w./+-]+) does not exist/m;

/** The folder automake named, from the top of the tree; null when it is not inside. */
function namedFolder(makefileAm: string, dir: string): string | null {
  const folder = dir.startsWith('./')
    ? posix.join(posix.dirname(makefileAm), dir)
    : dir.includes('/')
      ? posix.normalize(dir)
      : posix.join(posix.dirname(makefileAm), dir);
  return folder.split('/').includes('..') || folder.startsWith('/') ? null : folder;
}
/** Folders a build can do without: documentation, examples, tests, benchmarks. */
const OPTIONAL_DIR = /^(examples?|samples?|demos?|tests?|testsuite|benchmarks?|bench)$/;

/**
 * A release that lacks a folder its Makefile.am lists in SUBDIRS (Debian repacks tarballs without
 * documentation whose licence it cannot ship: `required directory ./doc does not exist`): the
 * folder leaves that SUBDIRS line and its Makefile leaves configure.ac, before the bootstrap, so
 * the code still builds. Only for documentation, examples, tests and benchmarks: a missing code
 * folder is not optional and goes to the escalation.
 */
export const automakeMissingDirectory: RecoveryHeuristic = {
  name: 'automake-missing-directory',
  description: 'leave an optional folder the release lacks out of SUBDIRS and configure.ac',
  match(ctx) {
    const m = MISSING_DIRECTORY.exec(ctx.failure.output);
    if (!m) return null;
    const [, makefileAm, line, dir] = m as unknown as [string, string, string, string];
    if (makefileAm.split('/').includes('..') || makefileAm.startsWith('/')) return null;
    const folder = namedFolder(makefileAm, dir);
    if (!folder) return null;
    if (!DOC_DIR.test(`/${folder}/`) && !OPTIONAL_DIR.test(posix.basename(folder))) return null;
    return {
      key: `${makefileAm}:${line}:${folder}`,
      reason: `the release has no ${folder}/, which ${makefileAm} builds`,
    };
  },
  async apply(ctx, match) {
    const [makefileAm, line, folder] = match.key.split(':') as [string, string, string];
    const root = posix.join('$RVPORT_SRC', ctx.plan.dir);
    const name = posix.basename(folder);
    const fromSubdirs = withoutSubdirCommand(`${root}/${makefileAm}`, name, Number(line));
    const fromConfigure = `for f in "${root}/configure.ac" "${root}/configure.in"; do [ -f "$f" ] && sed -i -E ${shellQuote(`s#(^|[[:space:][])${folder.replace(/[.+]/g, '\\$&')}/([[:alnum:]_/-]*/)?Makefile([[:space:]]+|(]|$))#\\1\\4#g`)} "$f"; done; true`;
    const commands = [fromSubdirs, fromConfigure];
    return {
      applied: true,
      description: `leave ${folder}/ out of the build (${match.reason})`,
      commands,
      plan: withPrepareCommands(ctx.plan, commands),
    };
  },
};
