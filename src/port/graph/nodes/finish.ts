import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ZodError } from 'zod';
import { FunctionNode } from '../../../engine/index.ts';
import { writeJsonAtomic } from '../../../fs/index.ts';
import { RecipeCache } from '../../../recipes/RecipeCache.ts';
import type { RecipeEntry } from '../../../recipes/RecipeEntry.ts';
import { recipeCacheDir } from '../../../recipes/recipeCacheDir.ts';
import type { UserlandEvidence } from '../../../sandbox/index.ts';
import { type CuratedArtifacts, curateArtifacts } from '../../llm/curateArtifacts.ts';
import { fewShotPath, toFewShotExample } from '../../llm/fewShot.ts';
import { type SummarizedRecipe, summarizeRecipe } from '../../llm/summarizeRecipe.ts';
import { copyArtifactsOut } from '../../outputs/copyArtifactsOut.ts';
import { judgeDelivery } from '../../outputs/judgeDelivery.ts';
import { renderRecipe } from '../../outputs/renderRecipe.ts';
import { toRecipeEntry } from '../../outputs/toRecipeEntry.ts';
import { type PortServices, portServices } from '../../run/PortServices.ts';
import type { PortState } from '../../state/PortState.ts';
import { runPackageTests } from '../../steps/runPackageTests.ts';
import { smokePrograms, smokeRunPrograms } from '../../steps/smokeRunPrograms.ts';
import { PortNode } from '../nodeNames.ts';
import { withAudit } from './audit.ts';
import { ensureBuildTree } from './ensureBuildTree.ts';

/** Compiler warnings that mean the code may misbehave on riscv64 although it compiled. */
const HAZARD_WARNINGS =
  /comparison is always (true|false) due to limited range of data type|comparison of constant .* with expression of type '(unsigned )?char' is always|result of comparison of constant -?\d+ with expression of type 'char'|-Wchar-subscripts|cast from pointer to integer of different size|-Wpointer-to-int-cast/;

/**
 * Runs the package's tests once (the result never changes the build status), ranks the artifacts
 * (LLM curator, or the verify node's rule ranking), smoke-runs the programs it built, collects
 * hazard warnings, copies the artifacts out and judges the copies (the verdict is theirs: the
 * tests may have rewritten what the verify node judged), writes the recipe (LLM summarizer
 * keeping every command verbatim, or the deterministic recipe) and, for a verified port, the
 * cache entry and few-shot example.
 */
export const finishNode = FunctionNode<PortState>({
  // differential tests and the replay come next; the replay node routes to optimize or the end
  then: PortNode.differential,
  run: async (s, ctx) => {
    const svc = portServices(ctx.services);
    svc.progress({ type: 'node', node: PortNode.finish });
    const started = Date.now();
    const sandbox = await svc.sandbox.get();
    const rebuilt = await ensureBuildTree(svc, sandbox, s.context, ctx, PortNode.finish);
    const state: PortState = { ...s.context, ...rebuilt };
    // The test run and the LLM answers are checkpointed: a resumed finish does not pay for them twice.
    const saved: FinishProgress = { ...((ctx.inFlight as FinishProgress | undefined) ?? {}) };
    const checkpoint = async <K extends keyof FinishProgress>(key: K, value: FinishProgress[K]) => {
      saved[key] = value;
      await ctx.saveInFlight(saved);
      return value as NonNullable<FinishProgress[K]>;
    };
    const tests =
      saved.tests ??
      (await checkpoint(
        'tests',
        await runPackageTests(sandbox, {
          plan: state.plan,
          ...(state.source.dir ? { sourceDir: state.source.dir } : {}),
          timeoutMs: svc.testTimeoutMs,
          logFile: svc.buildLog,
          signal: ctx.signal,
          ...(svc.runTests === false ? { runTests: false } : {}),
          onCommand: (command) => svc.progress({ type: 'phase', phase: 'test', command }),
        }),
      ));
    const curated = saved.curated ?? (await checkpoint('curated', await curateArtifacts(state, svc.llm)));
    const ranked: PortState = { ...state, artifacts: curated.artifacts, llm: curated.llm };
    const smokeTests = await smokeRunPrograms(sandbox, smokePrograms(ranked.artifacts), {
      signal: ctx.signal,
      onCommand: (command) => svc.progress({ type: 'phase', phase: 'smoke', command }),
    });
    const hazardWarnings = await hazardWarningsIn(svc.buildLog);
    // Copied once, after the tests and smoke runs (the last commands that can change them), and the
    // verdict is the copies': a file the tests swapped is judged again on its copy, or refused.
    const target = join(svc.outDir, 'artifacts');
    const copies = await copyArtifactsOut(sandbox.workspace, target, ranked.artifacts, (message) =>
      svc.progress({ type: 'note', message }),
    );
    const { delivery, verification } = await judgeDelivery(
      target,
      ranked.artifacts,
      copies,
      ranked.verification,
    );
    if (verification?.verdict !== ranked.verification?.verdict)
      svc.progress({ type: 'note', message: `not verified: ${verification?.reason}` });
    // the build's own evidence for native-userland mode, after everything ran in the instance
    const userlandEvidence = svc.collectModeEvidence
      ? (saved.userlandEvidence ??
        (await checkpoint('userlandEvidence', await svc.collectModeEvidence(sandbox))))
      : undefined;
    const finished: PortState = {
      ...ranked,
      verification,
      delivery,
      ...(userlandEvidence ? { userlandEvidence } : {}),
      buildStatus: 'SUCCESS',
      tests,
      smokeTests,
      hazardWarnings,
      timings: { ...state.timings, finish: Date.now() - started },
    };
    const summarized =
      saved.summarized ??
      (await checkpoint(
        'summarized',
        await summarizeRecipe(
          finished,
          renderRecipe(finished, { imageId: svc.sandbox.imageId, suite: svc.suite }),
          svc.llm,
        ),
      ));
    const recipe = summarized.recipe;
    const done: PortState = { ...finished, llm: summarized.llm, recipe };
    // a build its evidence refused is redone in accelerated mode (runPort): it teaches nothing
    if (done.verification?.verdict === 'verified' && userlandEvidence?.accepted !== false) {
      await saveFewShot(svc, done);
      // Last of all: an entry is an answer to the next run of this source, so it may only exist
      // once everything else of finish is done (a run stopped before this point resumes anyway).
      await saveCacheEntry(svc, toRecipeEntry(done, recipe, svc.sandbox.imageId));
    }
    let audited = state;
    if (curated.note)
      audited = { ...audited, audit: withAudit(audited, PortNode.finish, 'artifacts', curated.note) };
    if (summarized.note)
      audited = { ...audited, audit: withAudit(audited, PortNode.finish, 'recipe', summarized.note) };
    return {
      context: {
        ...(rebuilt.builtIn ? { builtIn: rebuilt.builtIn } : {}),
        buildStatus: 'SUCCESS',
        verification,
        delivery,
        tests,
        smokeTests,
        hazardWarnings,
        recipe,
        ...(userlandEvidence ? { userlandEvidence } : {}),
        timings: finished.timings,
        ...(svc.llm.offline ? {} : { artifacts: done.artifacts, llm: done.llm }),
        audit: withAudit(
          audited,
          PortNode.finish,
          'finished',
          `${finished.verification?.verdict ?? 'not_verified'}; tests ${tests.passed} passed, ${tests.failed} failed`,
        ),
      },
    };
  },
});

/** What a finish has done so far (its in-flight checkpoint). */
interface FinishProgress {
  tests?: NonNullable<PortState['tests']>;
  curated?: CuratedArtifacts;
  summarized?: SummarizedRecipe;
  userlandEvidence?: UserlandEvidence;
}

async function hazardWarningsIn(buildLog: string): Promise<string[]> {
  const text = await readFile(buildLog, 'utf8').catch(() => '');
  return [
    ...new Set(
      text
        .split('\n')
        .filter((l) => HAZARD_WARNINGS.test(l))
        .map((l) => l.trim()),
    ),
  ].slice(0, 50);
}

/** An entry the cache refuses (say, a patch that makes a symbolic link) costs the cache hit, not the port. */
async function saveCacheEntry(svc: PortServices, entry: RecipeEntry): Promise<void> {
  try {
    await new RecipeCache(recipeCacheDir({ ...process.env, RVPORT_HOME: svc.home })).put(entry);
  } catch (error) {
    svc.progress({
      type: 'note',
      message: `warning: the recipe was not cached: ${error instanceof ZodError ? (error.issues[0]?.message ?? error.message) : (error as Error).message}`,
    });
  }
}

/** A verified port teaches later ones: its plan, errors, repairs, LLM fixes and patches. */
async function saveFewShot(svc: PortServices, state: PortState): Promise<void> {
  const example = toFewShotExample(state, svc.sandbox.imageId);
  const file = fewShotPath(svc.home, example.buildSystem, example.package);
  await mkdir(dirname(file), { recursive: true });
  await writeJsonAtomic(file, example);
}
