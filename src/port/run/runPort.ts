import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { rvportHome } from '../../config/rvportHome.ts';
import { DEFAULT_DEBIAN_SUITE } from '../../debian/debianMirror.ts';
import type { EngineEvent } from '../../engine/index.ts';
import { resetWorkflow } from '../../engine/index.ts';
import { createLlmClient, type LlmClient, loadLlmConfig } from '../../llm/index.ts';
import { RecipeCache } from '../../recipes/RecipeCache.ts';
import type { RecipeEntry } from '../../recipes/RecipeEntry.ts';
import { recipeCacheDir } from '../../recipes/recipeCacheDir.ts';
import type { TargetMode } from '../../sandbox/index.ts';
import {
  DEFAULT_SAMPLE_PER_MILLE,
  imageKeys,
  loadUserlandProofs,
  modeImageKey,
  SandboxError,
  SSH_TARGET_IMAGE_ID,
  userlandLayerKeys,
} from '../../sandbox/index.ts';
import { localHeadCommit, parseSource, type SourceSpec } from '../../sources/index.ts';
import { writePortOutputs } from '../outputs/writePortOutputs.ts';
import { createPortState, type PortState } from '../state/PortState.ts';
import { checkCachedSource } from './cachedSourceCheck.ts';
import { chooseSandboxMode } from './chooseSandboxMode.ts';
import { configuredDependencySources } from './configuredDependencySources.ts';
import { createPortServices } from './createPortServices.ts';
import { ensureSandboxImages } from './ensureSandboxImages.ts';
import { askedMode, modeRedo } from './modeRedo.ts';
import { openPortCheckpoint, type PortCheckpoint } from './openPortCheckpoint.ts';
import type { PortRequest } from './PortRequest.ts';
import { cacheHitResult, type PortResult, portResult } from './PortResult.ts';
import type { ProgressEvent } from './ProgressEvent.ts';
import { portSandbox } from './portSandbox.ts';
import { runPortGraph } from './runPortGraph.ts';

export { DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_TEST_TIMEOUT_MS } from './createPortServices.ts';
export type { PortRequest } from './PortRequest.ts';

/**
 * Differential tests are off unless asked for: they build the package a second time (natively,
 * cheap next to the emulated run, see BENCHMARKS.md) and their first use provisions the amd64
 * build root (about 3 minutes, 690 MiB).
 */
export const DEFAULT_DIFFERENTIAL = false;

/** How a port reports while it runs, and how it is stopped. */
export interface PortIo {
  signal: AbortSignal;
  progress: (event: ProgressEvent) => void;
  onEngineEvent?: (event: EngineEvent) => void;
}

export type { PortResult, PortResultKind } from './PortResult.ts';

/**
 * One port, end to end: validate the SOURCE, answer from the recipe cache when it can, make sure
 * the sandbox exists, run the port graph (resuming an interrupted run of the same package), and
 * write the outputs. A build redone in another mode (modeRedo: a native-userland build its own
 * evidence refused, one whose gcc lacked a language's front end) starts again. Exit codes as SPEC
 * section 2.
 */
export async function runPort(request: PortRequest, io: PortIo): Promise<PortResult> {
  const env = request.env ?? process.env;
  const home = rvportHome(env);
  const suite = request.suite ?? DEFAULT_DEBIAN_SUITE;
  const spec = parseSource(request.source); // throws SourceError (bad input) before anything runs
  const dependencySources = configuredDependencySources(request, env); // so does a bad proxy URL
  const outDir = resolve(request.out, spec.name);
  await mkdir(outDir, { recursive: true });
  const keys = imageKeys(suite);
  const proof = (request.proofs ?? loadUserlandProofs()).proofs[spec.name];
  // Provisional: a proof holds for one source tree, known once init has acquired the source,
  // and init decides again (services.chooseMode). The cache lookup and provisioning use this one.
  const choice: { mode: TargetMode; reason: string } = request.target
    ? { mode: 'native', reason: `built on the riscv64 machine ${request.target} over SSH` }
    : chooseSandboxMode(request.mode, spec.name, proof, userlandLayerKeys(keys));
  const mode = choice.mode;

  const checkpoint = await openPortCheckpoint(spec, home, request.restart, io.progress);
  const { existing, resuming } = checkpoint;
  const imageId = mode === 'native' ? SSH_TARGET_IMAGE_ID : modeImageKey(keys, mode);
  const answer =
    request.force || resuming
      ? undefined
      : await lookupRecipe(spec, request, { env, home, suite, imageId }, io);
  const cached = answer?.entry;
  if (!request.optimize && answer?.entry) {
    return cacheHitResult(
      answer.entry,
      outDir,
      spec.name,
      request.package,
      `${answer.about}, sandbox ${imageId}`,
    );
  }

  const images = await ensureSandboxImages({
    home,
    suite,
    mode,
    env,
    signal: io.signal,
    progress: io.progress,
    ...(request.mirror ? { mirror: request.mirror } : {}),
  });

  await startLogs(checkpoint, outDir, spec.name, io);
  const llm = await portLlm(request, { env, home, outDir }, resuming ? existing?.context : undefined);
  // A resumed port keeps the mode it started in (init chose it for the acquired source).
  const resumedOptions = resuming ? existing?.context.options : undefined;
  const startMode = request.target ? 'native' : (resumedOptions?.mode ?? mode);
  if (startMode === 'native' && !request.target) {
    throw new SandboxError('bad-target', `the interrupted port of ${spec.name} ran on an SSH target`, {
      fix: `rvport port ${request.source} --target ssh://user@host[:port]   (or --restart to start again here)`,
    });
  }
  if (resumedOptions) {
    io.progress({
      type: 'note',
      message: `sandbox mode ${startMode}: ${resumedOptions.modeReason ?? 'the mode the port started in'}`,
    });
  }
  const sandbox = portSandbox({
    request,
    name: spec.name,
    home,
    suite,
    env,
    keys,
    images,
    startMode,
    resumedPerBuild: resumedOptions?.modeEvidence === 'per-build',
    proof,
    samplePerMille: request.evidenceSamplePerMille ?? DEFAULT_SAMPLE_PER_MILLE,
  });
  const services = createPortServices(request, {
    home,
    suite,
    outDir,
    keys,
    llm,
    sandbox,
    dependencySources,
    progress: io.progress,
  });
  const initial = createPortState(
    { spec: spec.raw, name: spec.name },
    {
      maxAttempts: request.maxAttempts,
      costCapUsd: llm.costCapUsd,
      offline: request.offline,
      mode: request.redoOf?.mode ?? mode,
      modeReason: request.redoOf?.reason ?? choice.reason,
      ...(request.redoOf?.compilers ? { compilers: request.redoOf.compilers } : {}),
      optimize: request.optimize,
      force: request.force || answer?.refetch === true,
      differential: request.differential ?? DEFAULT_DIFFERENTIAL,
      replay: request.replay === undefined ? 'auto' : request.replay ? 'on' : 'off',
    },
  );
  // With --optimize a verified entry is built again from its plan (then performance mode runs).
  if (request.optimize && cached?.verification.verdict === 'verified') initial.cachedRecipe = cached;
  const run = await runPortGraph(checkpoint, services, initial, startMode === 'native', io);
  const { state } = run;
  if (request.redoOf?.evidence) state.userlandEvidence = request.redoOf.evidence;
  const redo =
    run.outcome === 'interrupted'
      ? undefined
      : modeRedo(state, {
          mode: state.options.mode,
          perBuild: sandbox.perBuild(),
          asked: askedMode(request),
        });
  if (redo) {
    io.progress({ type: 'note', message: redo.reason });
    return runPort(
      {
        ...request,
        mode: redo.mode,
        restart: true,
        force: true,
        redoOf: {
          ...redo,
          asked: askedMode(request),
          ...(state.userlandEvidence ? { evidence: state.userlandEvidence } : {}),
        },
      },
      io,
    );
  }
  const files = await writePortOutputs(state, outDir, { package: request.package });
  return portResult(state, run, outDir, files, request.package);
}

/**
 * A new run starts its logs afresh (and a completed run of the package starts again); a resumed
 * one appends to what the interrupted run wrote.
 */
async function startLogs(
  checkpoint: PortCheckpoint,
  outDir: string,
  name: string,
  io: PortIo,
): Promise<void> {
  const { existing, resuming } = checkpoint;
  if (resuming) {
    io.progress({
      type: 'note',
      message: `resuming the interrupted port of ${name} at ${existing?.currentNode}`,
    });
    return;
  }
  if (existing) await resetWorkflow(checkpoint.runId, { store: checkpoint.store });
  for (const file of ['build.log', 'llm-calls.jsonl', 'differential.log'])
    await rm(join(outDir, file), { force: true });
}

/** The port's LLM client; a resumed port goes on counting what the interrupted run spent. */
async function portLlm(
  request: PortRequest,
  where: { env: NodeJS.ProcessEnv; home: string; outDir: string },
  resumed: PortState | undefined,
): Promise<LlmClient> {
  const config = await loadLlmConfig({
    env: where.env,
    home: where.home,
    overrides: {
      offline: request.offline,
      ...(request.costCapUsd !== undefined ? { costCapUsd: request.costCapUsd } : {}),
    },
  });
  return createLlmClient({
    config,
    callLogPath: join(where.outDir, 'llm-calls.jsonl'),
    spentUsd: resumed?.llm?.costUsd ?? 0,
  });
}

/**
 * The recipe cache's entry for this source on this image, when it answers for the source as a
 * port would build it now (cachedSourceCheck); otherwise the port runs, and says why.
 */
async function lookupRecipe(
  spec: SourceSpec,
  request: PortRequest,
  where: { env: NodeJS.ProcessEnv; home: string; suite: string; imageId: string },
  io: PortIo,
): Promise<{ entry?: RecipeEntry; about: string; refetch: boolean } | undefined> {
  const commit = await localCommit(spec);
  const warn = (message: string) => io.progress({ type: 'note', message: `warning: ${message}` });
  const entry = await new RecipeCache(recipeCacheDir(where.env)).lookup(
    spec.name,
    where.imageId,
    { spec: spec.raw, ...(commit ? { commit } : {}) },
    warn,
  );
  if (!entry) return undefined;
  const check = await checkCachedSource(entry, spec, {
    home: where.home,
    fetch: {
      origin: request.sourceOrigin ?? 'command-line',
      allowPrivateAddresses: !!request.allowPrivateAddresses,
    },
    suite: where.suite,
    ...(request.mirror ? { mirror: request.mirror } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
    log: (line) => io.progress({ type: 'note', message: line }),
  });
  if (check.hit) return { entry, about: `for ${check.about}`, refetch: false };
  io.progress({
    type: 'note',
    message: `the recipe-cache entry of ${spec.name} is not used: ${check.why}; porting again`,
  });
  return { about: check.why, refetch: check.refetch };
}

/**
 * The commit a local git repository is at: a cache entry made from another commit of the same
 * folder is not an answer for this one.
 */
async function localCommit(spec: SourceSpec): Promise<string | null> {
  if (spec.kind !== 'directory' || !existsSync(join(spec.path, '.git'))) return null;
  return localHeadCommit(spec.path);
}
