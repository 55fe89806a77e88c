import { readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, posix, relative, sep } from 'node:path';
import { MAKE_COMMAND, withMakeVariables } from './makeCommandLine.ts';
import type { HeuristicContext, RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { readTreeFile } from './readTreeFile.ts';

/** make's word for an include whose file is missing: `Make.config:2: Make.: No such file or directory`. */
const MISSING_INCLUDE = /^([^\s:]+):(\d+): (\S+): No such file or directory$/m;
/** The last path part of an include, with one variable in it: `Make.$(CONF)`, `config.${OS}.mk`. */
const ONE_VARIABLE = /^([^$]*)\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]([^$]*)$/;
/** The names a tree gives the configuration of a GNU/Linux system, best first. */
const PLATFORM_NAMES = ['linux', 'Linux', 'unix', 'posix', 'gnu', 'linux-gnu', 'gcc'];
const VALUE = /^[A-Za-z0-9_.+-]+$/;

interface PlatformChoice {
  makefile: string;
  variable: string;
  value: string;
  /** The file names the include could take, as the tree has them. */
  choices: string[];
}

/**
 * A makefile that includes one configuration file per platform by a variable nobody set (`include
 * $(ROOT)/Make.$(CONF)`, with Make.unix, Make.osx, Make.win32 beside it; the README says "run
 * CONF=unix make"): make then looks for `Make.` and stops. The variable is set on make's command
 * line to the tree's configuration for Linux (`linux`, else `unix`, `posix`, …), when the tree has
 * exactly such a file next to the makefile.
 */
export const makefilePlatformVariable: RecoveryHeuristic = {
  name: 'makefile-platform-variable',
  description:
    'set the make variable that names a per-platform configuration file (include Make.$(CONF)) to the Linux one the tree has',
  async match(ctx) {
    const choice = await platformChoice(ctx);
    if (!choice) return null;
    return {
      key: `platform-variable:${choice.variable}=${choice.value}`,
      reason: `${choice.makefile} includes a file named by ${choice.variable}, which is empty; the tree has ${choice.choices.join(', ')}`,
    };
  },
  async apply(ctx) {
    const choice = await platformChoice(ctx);
    if (!choice)
      return { applied: false, description: 'no per-platform include to choose for', commands: [] };
    const setting = `${choice.variable}=${choice.value}`;
    return {
      applied: true,
      description: `make runs with ${setting} (${choice.makefile} includes the per-platform file ${choice.variable} names)`,
      commands: [],
      plan: withMakeVariables(ctx.plan, [setting]),
    };
  },
};

async function platformChoice(ctx: HeuristicContext): Promise<PlatformChoice | null> {
  if (!MAKE_COMMAND.test(ctx.failure.command.trim())) return null;
  const found = MISSING_INCLUDE.exec(ctx.failure.output);
  if (!found) return null;
  const [, makefile, lineNumber, missing] = found as unknown as [string, string, string, string];
  if (makefile.includes('..') || makefile.startsWith('/')) return null;
  const text = await readTreeFile(ctx, makefile);
  const line = text?.split('\n')[Number(lineNumber) - 1];
  const include = line && /^\s*-?include\s+(.+?)\s*$/.exec(line)?.[1];
  if (!include) return null;
  for (const word of include.split(/\s+/)) {
    const parts = ONE_VARIABLE.exec(posix.basename(word));
    if (!parts) continue;
    const [, prefix, variable, suffix] = parts as unknown as [string, string, string, string];
    // make names the file with the variable empty: this is the include that failed
    if (posix.basename(missing) !== `${prefix}${suffix}`) continue;
    const folder = posix.dirname(makefile);
    const names = await filesIn(ctx, folder);
    const values = names
      .filter((n) => n !== posix.basename(makefile))
      .filter((n) => n.startsWith(prefix) && n.endsWith(suffix) && n.length > prefix.length + suffix.length)
      .map((n) => n.slice(prefix.length, n.length - suffix.length))
      .filter((v) => VALUE.test(v));
    const value = PLATFORM_NAMES.find((p) => values.includes(p));
    if (!value) return null;
    return { makefile, variable, value, choices: values.map((v) => `${prefix}${v}${suffix}`).sort() };
  }
  return null;
}

/**
 * The regular files of a folder of the tree: the folder, its links resolved, must be inside the
 * tree, and its entries are taken as they are (a link is not a file).
 */
async function filesIn(ctx: HeuristicContext, folder: string): Promise<string[]> {
  const tree = join(ctx.sandbox.workspace, 'src');
  try {
    const root = await realpath(tree);
    const dir = await realpath(join(tree, ctx.plan.dir, folder));
    const inside = relative(root, dir);
    if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return [];
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
}
