import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mapCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** The folder make was in when it failed: the last "Entering directory" before the first error. */
function failingDirectory(output: string): string | null {
  const firstError = output.search(/\*\*\* /);
  const before = firstError === -1 ? output : output.slice(0, firstError);
  const entered = [...before.matchAll(/Entering directory '([^']+)'/g)].at(-1)?.[1];
  return entered ?? null;
}

const DOC_DIR = /\/(doc|docs|documentation|man|manual|spec|info)(\/|$)/;
/** configure switches that leave documentation out, in order of preference. */
const DOC_SWITCHES = [
  '--disable-doc',
  '--disable-docs',
  '--disable-documentation',
  '--disable-spec',
  '--disable-man',
  '--disable-manpages',
  '--without-docs',
  '--without-doc',
];

/**
 * Documentation that cannot be built here (an input missing from the release tarball, a tool
 * that is not packaged): when configure offers a switch for it, build without the documentation.
 */
export const disableDocumentation: RecoveryHeuristic = {
  name: 'disable-documentation',
  description: 'build without the documentation when it cannot be built here and configure offers a switch',
  match(ctx) {
    const dir = failingDirectory(ctx.failure.output);
    if (!dir || !DOC_DIR.test(dir)) return null;
    const configure = join(ctx.sandbox.workspace, 'src', ctx.plan.dir, 'configure');
    if (!existsSync(configure)) return null;
    const text = readFileSync(configure, 'utf8');
    const offered = DOC_SWITCHES.filter((s) => new RegExp(`${s}(?![\\w-])`).test(text));
    return offered.length
      ? {
          key: offered.join(' '),
          reason: `the documentation in ${dir} does not build and configure offers ${offered.join(', ')}`,
        }
      : null;
  },
  async apply(ctx, match) {
    const plan = mapCommands(ctx.plan, (c, phase) =>
      phase === 'configure' && /^\.\/configure\b/.test(c) && !c.includes(match.key) ? `${c} ${match.key}` : c,
    );
    const changed = JSON.stringify(plan) !== JSON.stringify(ctx.plan);
    return changed
      ? {
          applied: true,
          description: `configure with ${match.key} (the documentation cannot be built here)`,
          commands: [],
          plan,
        }
      : { applied: false, description: 'no ./configure command to add the switches to', commands: [] };
  },
};
