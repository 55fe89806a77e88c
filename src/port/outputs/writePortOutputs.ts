import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../../fs/index.ts';
import { OPTIMIZED_RECIPE_FILE, renderOptimizedRecipe } from '../../optimize/renderOptimization.ts';
import type { RecipeEntry } from '../../recipes/RecipeEntry.ts';
import type { PortState } from '../state/PortState.ts';
import { type BuildScript, buildScriptOfEntry, buildScriptOfState } from './BuildScript.ts';
import { renderBuildScript, renderPackagesTxt } from './renderBuildScript.ts';
import { renderDockerfile } from './renderDockerfile.ts';
import { renderEscalation } from './renderEscalation.ts';
import { renderReport } from './renderReport.ts';
import { writePackageZip } from './writePackageZip.ts';

export interface PortFiles {
  written: string[];
  packageFile?: string;
  packageError?: string;
  /** Why no build.sh was written for a build that succeeded (a plan that cannot be a script). */
  scriptError?: string;
}

/** build.sh and the files it goes with; a port that did not build gets none (old ones go). */
export const SCRIPT_FILES = ['build.sh', 'packages.txt', 'Dockerfile'] as const;

/**
 * The outputs of SPEC section 3 in OUT/NAME: state.json, recipe.md, report.md, patches/,
 * llm-calls.jsonl (build.log is written while the port runs), escalation.md for an escalated
 * port, and with --package the zip. Every file is written atomically.
 */
export async function writePortOutputs(
  state: PortState,
  outDir: string,
  options: { package: boolean },
): Promise<PortFiles> {
  const written: string[] = [];
  const put = async (name: string, text: string) => {
    await writeFileAtomic(join(outDir, name), text);
    written.push(name);
  };
  await writeJsonAtomic(join(outDir, 'state.json'), state);
  written.push('state.json');
  if (state.recipe) await put('recipe.md', state.recipe);
  const scriptError = await writeScripts(
    outDir,
    state.buildStatus === 'SUCCESS' ? () => buildScriptOfState(state) : () => null,
    put,
    // this run replayed its build.sh (the replay node): its replay.md and replay.log stay
    state.replay?.replayed === 'yes' || state.replay?.replayed === 'no',
  );
  await put('report.md', renderReport(state));
  // the winning tune of performance mode, and only of this run's
  const optimized = state.optimization ? renderOptimizedRecipe(state.optimization, state.source.name) : null;
  if (optimized) await put(OPTIMIZED_RECIPE_FILE, optimized);
  else await rm(join(outDir, OPTIMIZED_RECIPE_FILE), { force: true });
  if (state.buildStatus === 'ESCALATED' || state.buildStatus === 'FAILED')
    await put('escalation.md', renderEscalation(state));
  else await rm(join(outDir, 'escalation.md'), { force: true });
  await rm(join(outDir, 'patches'), { recursive: true, force: true });
  if (state.patches.length) {
    await mkdir(join(outDir, 'patches'), { recursive: true });
    for (const p of state.patches) await put(join('patches', p.name), p.diff);
  }
  const callLog = join(outDir, 'llm-calls.jsonl');
  if (!(await exists(callLog))) await put('llm-calls.jsonl', '');
  if (await exists(join(outDir, 'build.log'))) written.push('build.log');
  for (const name of ['differential.log', 'replay.md', 'replay.log'])
    if (state.buildStatus === 'SUCCESS' && (await exists(join(outDir, name)))) written.push(name);
  const files: PortFiles = { written, ...(scriptError ? { scriptError } : {}) };
  if (options.package) {
    try {
      files.packageFile = writePackageZip(state, outDir, written);
    } catch (error) {
      files.packageError = (error as Error).message;
    }
  }
  return files;
}

/** A cache hit writes the recipe (and a short report) again, with no sandbox, network or LLM. */
export async function writeCacheHitOutputs(entry: RecipeEntry, outDir: string): Promise<PortFiles> {
  await writeFileAtomic(join(outDir, 'recipe.md'), entry.recipe);
  await writeJsonAtomic(join(outDir, 'cache-entry.json'), entry);
  const written = ['recipe.md', 'cache-entry.json'];
  if (entry.patches.length) {
    await mkdir(join(outDir, 'patches'), { recursive: true });
    for (const p of entry.patches) {
      await writeFileAtomic(join(outDir, 'patches', p.name), p.diff);
      written.push(join('patches', p.name));
    }
  }
  const scriptError = await writeScripts(
    outDir,
    () => buildScriptOfEntry(entry),
    async (name, text) => {
      await writeFileAtomic(join(outDir, name), text);
      written.push(name);
    },
  );
  return { written, ...(scriptError ? { scriptError } : {}) };
}

/**
 * build.sh, packages.txt and the Dockerfile of a build that succeeded, each written atomically;
 * stale ones of an earlier run go first, so a folder never holds a script of another build.
 * Answers why there is none when the plan cannot be a script.
 */
async function writeScripts(
  outDir: string,
  scriptOf: () => BuildScript | null,
  put: (name: string, text: string) => Promise<void>,
  keepReplay = false,
): Promise<string | undefined> {
  // a replay of an earlier build says nothing about this one
  for (const name of [...SCRIPT_FILES, ...(keepReplay ? [] : ['replay.md', 'replay.log'])])
    await rm(join(outDir, name), { force: true });
  let script: BuildScript | null;
  try {
    script = scriptOf();
  } catch (error) {
    return `no build.sh: ${(error as Error).message}`;
  }
  if (!script) return undefined;
  await put('build.sh', renderBuildScript(script));
  await put('packages.txt', renderPackagesTxt(script));
  await put('Dockerfile', renderDockerfile(script));
  return undefined;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
