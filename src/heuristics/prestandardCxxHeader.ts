import { languageOf, SourceTree } from '../analysis/index.ts';
import { buildTreeRoot } from './buildTreeRoot.ts';
import { withEnv } from './planEdits.ts';
import type { HeuristicContext, RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * The C++ headers of before the 1998 standard: GCC dropped them long ago (`<iostream.h>` became
 * `<iostream>`), but configure scripts of that time still check for them, and some stop when one
 * is missing (id3lib: "Missing a vital header file"). Where the code itself never includes the
 * old name, the check is all that is left of it: configure is told the answer through its cache
 * variable (`ac_cv_header_iomanip_h=yes`), as a packager would drop the check from configure.ac.
 * Where the code does include it, this does nothing: that needs a port of the code.
 */
const PRESTANDARD = new Set([
  'iostream',
  'iomanip',
  'fstream',
  'strstream',
  'istream',
  'ostream',
  'streambuf',
  'stdiostream',
]);

/** The last `checking for NAME.h... no` before configure's error. */
const CHECK_FAILED = /^checking for ([a-z]+)\.h\.\.\. no$/;
const CONFIGURE_ERROR = /^configure: error: /;

/** The pre-standard header whose missing check stopped configure, or null. */
function failedHeader(output: string): string | null {
  const lines = output.split('\n');
  const error = lines.findLastIndex((l) => CONFIGURE_ERROR.test(l));
  if (error === -1) return null;
  for (let i = error - 1; i >= 0 && i >= error - 8; i--) {
    const name = CHECK_FAILED.exec(lines[i]?.trim() ?? '')?.[1];
    if (name) return PRESTANDARD.has(name) ? name : null;
  }
  return null;
}

/**
 * Whether any C or C++ file of the tree includes `<NAME.h>` (or `"NAME.h"`); a tree that cannot
 * be walked counts as one that does.
 */
function includedByCode(ctx: HeuristicContext, name: string): boolean {
  const tree = SourceTree.fromDisk(buildTreeRoot(ctx));
  if (tree.files.length === 0) return true;
  const include = new RegExp(`^\\s*#\\s*include\\s*[<"]${name}\\.h[>"]`, 'm');
  return tree.files.some((path) => languageOf(path) === 'c' && include.test(tree.read(path) ?? ''));
}

export const prestandardCxxHeader: RecoveryHeuristic = {
  name: 'prestandard-cxx-header',
  description: "answer configure's obsolete check for a pre-standard C++ header that the code never includes",
  match(ctx) {
    if (ctx.failure.phase !== 'configure') return null;
    const name = failedHeader(ctx.failure.output);
    if (!name || includedByCode(ctx, name)) return null;
    return {
      key: `prestandard-${name}`,
      reason: `configure stops for <${name}.h>, a C++ header of before 1998 that no file of the tree includes`,
    };
  },
  async apply(ctx, match) {
    const name = match.key.slice('prestandard-'.length);
    const variable = `ac_cv_header_${name}_h`;
    return {
      applied: true,
      description: `configure is told <${name}.h> is there (${variable}=yes): only its check uses it`,
      commands: [],
      plan: withEnv(ctx.plan, variable, 'yes'),
    };
  },
};
