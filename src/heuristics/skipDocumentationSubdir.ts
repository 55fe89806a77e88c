import { basename, posix } from 'node:path';
import { readTextConfined } from '../fs/index.ts';
import { buildTreeRoot } from './buildTreeRoot.ts';
import { DOC_DIR, failingDirectory } from './failingDirectory.ts';
import { withoutSubdirCommand, withPrepareCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

const MISSING_INPUT = /No rule to make target '([^']+)', needed by '[^']+'/;

/**
 * A documentation folder whose inputs are missing from the release (Debian's libtheora drops
 * the IETF drafts its doc/Makefile lists) and that no configure switch turns off: leave the
 * folder out of its parent's SUBDIRS in Makefile.in, before configure, so the code still builds
 * and installs. Only when the folder is a plain word of a SUBDIRS line; the recipe says so.
 */
export const skipDocumentationSubdir: RecoveryHeuristic = {
  name: 'skip-documentation-subdir',
  description: 'leave a documentation folder whose inputs the release lacks out of the build',
  match(ctx) {
    const missing = MISSING_INPUT.exec(ctx.failure.output)?.[1];
    const dir = failingDirectory(ctx.failure.output);
    if (!missing || !dir || !DOC_DIR.test(`${dir}/`) || !dir.startsWith(`${ctx.srcDir}/`)) return null;
    const rel = posix.relative(ctx.srcDir, dir);
    const docDir = DOC_DIR.test(`/${basename(rel)}/`) ? rel : null;
    if (!docDir) return null;
    const { text } = readTextConfined(buildTreeRoot(ctx), posix.join(posix.dirname(docDir), 'Makefile.in'));
    if (text === null) return null;
    const subdirs = text.split('\n').filter((l) => /^SUBDIRS\s*=/.test(l));
    if (!subdirs.some((l) => new RegExp(`\\s${basename(docDir)}(\\s|$)`).test(l))) return null;
    return { key: docDir, reason: `${docDir} needs ${missing}, which the release does not ship` };
  },
  async apply(ctx, match) {
    const parent = posix.join('$RVPORT_SRC', posix.dirname(match.key), 'Makefile.in');
    const name = basename(match.key);
    const sed = withoutSubdirCommand(parent, name, 'SUBDIRS');
    return {
      applied: true,
      description: `leave ${match.key} out of the build (${match.reason})`,
      commands: [sed],
      plan: withPrepareCommands(ctx.plan, [sed]),
    };
  },
};
