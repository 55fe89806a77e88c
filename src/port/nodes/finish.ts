import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { ZodError } from 'zod';
import { FunctionNode } from '../../engine/nodes/FunctionNode.ts';
import type { NodeRunContext } from '../../engine/types.ts';
import { writeJsonAtomic } from '../../fs/index.ts';
import { RecipeCache } from '../../recipes/RecipeCache.ts';
import type { RecipeEntry } from '../../recipes/RecipeEntry.ts';
import { recipeCacheDir } from '../../recipes/recipeCacheDir.ts';
import type { UserlandEvidence } from '../../sandbox/proof/judgeUserlandEvidence.ts';
import type { Sandbox } from '../../sandbox/Sandbox.ts';
import { type CuratedArtifacts, curateArtifacts } from '../llm/curateArtifacts.ts';
import { fewShotPath, toFewShotExample } from '../llm/fewShot.ts';
import { type SummarizedRecipe, summarizeRecipe } from '../llm/summarizeRecipe.ts';
import { describeSubmodule, missingSubmoduleIn } from '../missingSubmodule.ts';
import { PortNode } from '../nodeNames.ts';
import { copyArtifactsOut } from '../outputs/copyArtifactsOut.ts';
import { renderRecipe } from '../outputs/renderRecipe.ts';
import { toRecipeEntry } from '../outputs/toRecipeEntry.ts';
import { type PortServices, portServices } from '../PortServices.ts';
import type { PortState } from '../PortState.ts';
import { parseTestSummary } from '../parseTestSummary.ts';
import { artifactLocation, planCommandContext, SANDBOX_DEST, SANDBOX_SRC } from '../planFromAnalysis.ts';
import { routeFinishToNext } from '../routes/routeFinishToNext.ts';
import { withAudit } from './audit.ts';
import { ensureBuildTree } from './ensureBuildTree.ts';

/** Programs smoke-run after the build, at most. */
export const MAX_SMOKE_PROGRAMS = 5;
export const SMOKE_TIMEOUT_MS = 20_000;
/** Compiler warnings that mean the code may misbehave on riscv64 although it compiled. */
const HAZARD_WARNINGS =
  /comparison is always (true|false) due to limited range of data type|comparison of constant .* with expression of type '(unsigned )?char' is always|result of comparison of constant -?\d+ with expression of type 'char'|-Wchar-subscripts|cast from pointer to integer of different size|-Wpointer-to-int-cast/;

/**
 * Runs the package's tests once (the result never changes the build status), ranks the artifacts
 * (LLM curator, or the verify node's rule ranking), smoke-runs the programs it built, collects
 * hazard warnings, writes the recipe (LLM summarizer keeping every command verbatim, or the
 * deterministic recipe) and, for a verified port, the cache entry and few-shot example.
 */
export const finishNode = FunctionNode<PortState>({
  targets: [PortNode.optimize, '__end__'],
  then: (s) => routeFinishToNext(s.context),
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
    const tests = saved.tests ?? (await checkpoint('tests', await runTests(svc, sandbox, state, ctx)));
    const curated = saved.curated ?? (await checkpoint('curated', await curateArtifacts(state, svc.llm)));
    const ranked: PortState = { ...state, artifacts: curated.artifacts, llm: curated.llm };
    const smokeTests = await smokeRun(svc, sandbox, ranked, ctx);
    const hazardWarnings = await hazardWarningsIn(svc.buildLog);
    await copyArtifactsOut(sandbox.workspace, join(svc.outDir, 'artifacts'), ranked.artifacts, (message) =>
      svc.progress({ type: 'note', message }),
    );
    // the build's own evidence for native-userland mode, after everything ran in the instance
    const userlandEvidence = svc.collectModeEvidence
      ? (saved.userlandEvidence ??
        (await checkpoint('userlandEvidence', await svc.collectModeEvidence(sandbox))))
      : undefined;
    const finished: PortState = {
      ...ranked,
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

async function runTests(
  svc: PortServices,
  sandbox: Sandbox,
  state: PortState,
  ctx: NodeRunContext,
): Promise<NonNullable<PortState['tests']>> {
  const commands = state.plan?.phases.find((p) => p.name === 'test')?.commands ?? [];
  if (svc.runTests === false)
    return { ran: false, passed: 0, failed: 0, exitCode: null, summary: 'tests not run (a timing-only run)' };
  if (commands.length === 0)
    return { ran: false, passed: 0, failed: 0, exitCode: null, summary: 'the build system has no test step' };
  let output = '';
  let exitCode = 0;
  for (const command of commands) {
    svc.progress({ type: 'phase', phase: 'test', command });
    const result = await sandbox.run(command, {
      ...planCommandContext(state.plan),
      timeoutMs: svc.testTimeoutMs,
      logFile: svc.buildLog,
      signal: ctx.signal,
    });
    output += `${result.stdout}\n${result.stderr}\n`;
    if (result.timedOut) output += `(the tests ran past the time limit of ${svc.testTimeoutMs / 1000} s)\n`;
    if (result.exitCode !== 0) {
      exitCode = result.exitCode;
      break;
    }
  }
  const counts = parseTestSummary(output, exitCode);
  const tail = output.trim().split('\n').slice(-15).join('\n');
  // tests that cannot build because a submodule has no content say so before their output
  const submodule =
    exitCode !== 0 && state.source.dir ? missingSubmoduleIn(state.source.dir, output, state.plan?.dir) : null;
  const summary = submodule
    ? `the tests need the submodule ${describeSubmodule(submodule)}, which has no content in this checkout\n${tail}`
    : tail;
  return { ran: true, passed: counts.passed, failed: counts.failed, exitCode, summary };
}

async function smokeRun(
  svc: PortServices,
  sandbox: Sandbox,
  state: PortState,
  ctx: NodeRunContext,
): Promise<PortState['smokeTests']> {
  const programs = state.artifacts
    .filter((a) => a.role === 'program' && a.machine === 'riscv64')
    .slice(0, MAX_SMOKE_PROGRAMS);
  const results: PortState['smokeTests'] = [];
  for (const program of programs) {
    const { folder, rel } = artifactLocation(program.path);
    const inside = posix.join(folder === 'dest' ? SANDBOX_DEST : SANDBOX_SRC, rel);
    for (const flag of ['--version', '--help']) {
      svc.progress({ type: 'phase', phase: 'smoke', command: `${program.path} ${flag}` });
      const result = await sandbox.run([inside, flag], {
        timeoutMs: SMOKE_TIMEOUT_MS,
        signal: ctx.signal,
        cwd: posix.dirname(inside),
      });
      const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(0, 3).join('\n');
      results.push({
        program: program.path,
        command: `${program.path} ${flag}`,
        exitCode: result.exitCode,
        output,
      });
      if (result.exitCode === 0) break;
    }
  }
  return results;
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
