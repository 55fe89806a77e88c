import { posix } from 'node:path';
import { RvportError, type RvportErrorOptions } from '../../errors/index.ts';
import { allowedPlanEnv } from '../../plan/index.ts';
import type { RecipeEntry } from '../../recipes/RecipeEntry.ts';
import { splitDebianPatches } from '../patches/debianPatches.ts';
import type { PlanPhase, PortState } from '../state/PortState.ts';
import { buildToolsOf } from './buildTools.ts';

export type BuildScriptErrorCode = 'bad-package' | 'bad-patch-name' | 'bad-dir' | 'bad-command';

/** A plan that cannot be written as a script without letting its data become shell code. */
export class BuildScriptError extends RvportError {
  override readonly name = 'BuildScriptError';
  declare readonly code: BuildScriptErrorCode;
  constructor(code: BuildScriptErrorCode, message: string, options?: RvportErrorOptions) {
    super(code, message, options);
  }
}

/**
 * A Debian package name as Policy 5.6.1 spells it (lower case, digits, `+ - .`, two characters
 * at least), with the `:arch` qualifier apt takes. Nothing else reaches apt-get or packages.txt.
 */
export const DEBIAN_PACKAGE_NAME = /^[a-z0-9][a-z0-9+.-]+(:[a-z0-9]+)?$/;
/** Patch file names as rvport writes them (and as the recipe cache accepts them). */
const PATCH_NAME = /^[0-9]{4,}-[a-z0-9-]+\.patch$/;
/** The build phases in the port's build order; tests run after them, in finish. */
const BUILD_PHASES = new Set(['prepare', 'bootstrap', 'configure', 'build', 'install']);

/** The sandbox's variables and the script's own ones that replace them. */
const VARIABLES: ReadonlyArray<[string, string]> = [
  ['RVPORT_SRC', 'SRC_DIR'],
  ['RVPORT_DESTDIR', 'DESTDIR'],
];

/** Everything build.sh, packages.txt, the Dockerfile and recipe.md's build section say. */
export interface BuildScript {
  name: string;
  commit: string | null;
  /** False: the build succeeded but no riscv64 output was proven (the script says so). */
  verified: boolean;
  /** The build's folder relative to the source root. */
  dir: string;
  /** The complete prerequisites: the image's build tools the plan uses and the plan's packages. */
  packages: string[];
  env: Record<string, string>;
  /** Debian's patches (applied to the tree as released) and the port's own (after the timestamps). */
  debianPatches: string[];
  patches: string[];
  /** Autotools trees get rvport's timestamps between the two sets of patches. */
  autotoolsTimestamps: boolean;
  /** The build phases in the plan's order, then the tests; commands with the script's variables. */
  phases: { name: string; optional: boolean; commands: string[] }[];
}

export interface BuildScriptInput {
  name: string;
  commit?: string | undefined;
  verified: boolean;
  buildSystem: string;
  plan: {
    dir: string;
    packages: readonly string[];
    phases: readonly PlanPhase[] | readonly ScriptPhase[];
    env?: Record<string, string> | undefined;
  };
  patches: readonly { name: string }[];
}

type ScriptPhase = { name: string; commands: readonly string[]; optional?: boolean | undefined };

/**
 * The script of a plan, from a port's state or a recipe-cache entry (the same fields, so a cache
 * hit writes the same build.sh). Every name that becomes a word of the script is checked here:
 * a plan comes from a repository, an LLM or an imported bundle.
 */
export function buildScriptOf(input: BuildScriptInput): BuildScript {
  const dir = posix.normalize(input.plan.dir || '.');
  if (dir.startsWith('/') || dir === '..' || dir.startsWith('../') || dir.includes('\0'))
    throw new BuildScriptError(
      'bad-dir',
      `the build folder ${JSON.stringify(input.plan.dir)} is not inside the source`,
    );
  for (const p of input.plan.packages)
    if (!DEBIAN_PACKAGE_NAME.test(p))
      throw new BuildScriptError('bad-package', `${JSON.stringify(p)} is not a Debian package name`);
  for (const p of input.patches)
    if (!PATCH_NAME.test(p.name))
      throw new BuildScriptError(
        'bad-patch-name',
        `${JSON.stringify(p.name)} is not a patch file name rvport writes`,
      );
  const phases = [
    ...input.plan.phases.filter((p) => BUILD_PHASES.has(p.name)),
    ...input.plan.phases.filter((p) => p.name === 'test'),
  ].map((p) => ({
    name: p.name,
    optional: p.optional === true,
    commands: p.commands.map((c) => {
      if (c.includes('\0')) throw new BuildScriptError('bad-command', `a ${p.name} command holds a NUL byte`);
      return withScriptVariables(c);
    }),
  }));
  const { debian, rest } = splitDebianPatches(input.patches);
  const tools = buildToolsOf(
    input.buildSystem,
    phases.flatMap((p) => p.commands),
    input.patches.length > 0,
  );
  return {
    name: input.name,
    commit: input.commit && /^[0-9a-f]{7,64}$/.test(input.commit) ? input.commit : null,
    verified: input.verified,
    dir,
    packages: [...new Set([...tools, ...input.plan.packages])].sort(),
    env: allowedPlanEnv(input.plan.env).env,
    debianPatches: debian.map((p) => p.name),
    patches: rest.map((p) => p.name),
    autotoolsTimestamps: input.buildSystem === 'autotools',
    phases,
  };
}

/** `$RVPORT_SRC` and `${RVPORT_DESTDIR…}` as the script's `$SRC_DIR` and `$DESTDIR`. */
export function withScriptVariables(command: string): string {
  let out = command;
  for (const [from, to] of VARIABLES) {
    out = out
      .replace(new RegExp(`\\$${from}(?![A-Za-z0-9_])`, 'g'), () => `$${to}`)
      .replace(new RegExp(`\\$\\{${from}(?=[}:#%/?=+-])`, 'g'), () => `\${${to}`);
  }
  return out;
}

/** The script of a port's plan (null without one); the writers decide whether the build earned it. */
export function buildScriptOfState(state: PortState): BuildScript | null {
  if (!state.plan) return null;
  return buildScriptOf({
    name: state.source.name,
    commit: state.source.commit,
    verified: state.verification?.verdict === 'verified',
    buildSystem: state.plan.buildSystem,
    plan: state.plan,
    patches: state.patches,
  });
}

/** The same script from a recipe-cache entry (a cache hit writes build.sh too). */
export function buildScriptOfEntry(entry: RecipeEntry): BuildScript {
  return buildScriptOf({
    name: entry.package,
    commit: entry.source.commit,
    verified: entry.verification.verdict === 'verified',
    buildSystem: entry.buildSystem,
    plan: entry.plan,
    patches: entry.patches,
  });
}
