import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { rvportHome } from '../config/rvportHome.ts';
import { DEFAULT_DEBIAN_SUITE } from '../debian/debianMirror.ts';
import { imageAptLists, loadInstallablePackages } from '../debian/installablePackages.ts';
import type { EngineEvent } from '../engine/events.ts';
import { resetWorkflow, runWorkflow } from '../engine/runWorkflow.ts';
import { FileStateStore } from '../engine/stores/FileStateStore.ts';
import { recoveryHeuristics } from '../heuristics/index.ts';
import { createLlmClient, loadLlmConfig } from '../llm/index.ts';
import { RecipeCache } from '../recipes/RecipeCache.ts';
import { recipeCacheDir } from '../recipes/recipeCacheDir.ts';
import type { ChrootSandbox } from '../sandbox/chroot/ChrootSandbox.ts';
import { SandboxError } from '../sandbox/errors.ts';
import { imageKeys } from '../sandbox/findImages.ts';
import { collectUserlandEvidence } from '../sandbox/proof/collectUserlandEvidence.ts';
import { canBuildRecorder, DEFAULT_SAMPLE_PER_MILLE } from '../sandbox/proof/evidenceLayer.ts';
import type { UserlandEvidence } from '../sandbox/proof/judgeUserlandEvidence.ts';
import { loadUserlandProofs, type UserlandProofTable } from '../sandbox/proof/userlandProofs.ts';
import type { SandboxMode, TargetMode } from '../sandbox/Sandbox.ts';
import { sandboxPaths } from '../sandbox/sandboxPaths.ts';
import { SSH_TARGET_IMAGE_ID } from '../sandbox/ssh/createSshSandbox.ts';
import { localHeadCommit } from '../sources/git.ts';
import { parseSource, type SourceSpec } from '../sources/parseSource.ts';
import { chooseRustLayer, loadRustProofs } from './chooseRustLayer.ts';
import { chooseSandboxMode, type ModeChoice, type RequestedMode } from './chooseSandboxMode.ts';
import { configuredDependencySources } from './configuredDependencySources.ts';
import { contentsLoader } from './contentsLoader.ts';
import { loadSourceIndex } from './debianSourceHint.ts';
import { ensureSandboxImages } from './ensureSandboxImages.ts';
import { localSandboxProvider } from './localSandboxProvider.ts';
import { modeForLanguages } from './modeForLanguages.ts';
import { once } from './once.ts';
import { writePortOutputs } from './outputs/writePortOutputs.ts';
import { cacheHitResult, type PortResult, portResult } from './PortResult.ts';
import type { ModeAnalysis, PortServices } from './PortServices.ts';
import { createPortState, type PortState } from './PortState.ts';
import type { ProgressEvent } from './ProgressEvent.ts';
import { portGraph } from './portGraph.ts';
import { portRunId } from './portRunId.ts';
import { sshSandboxProvider } from './sshSandboxProvider.ts';
import { staleCheckpoint } from './staleCheckpoint.ts';
import { redoReason, userlandRefusal } from './userlandRefusal.ts';

export const DEFAULT_COMMAND_TIMEOUT_MS = 60 * 60 * 1000;
export const DEFAULT_TEST_TIMEOUT_MS = 30 * 60 * 1000;

export interface PortRequest {
  source: string;
  maxAttempts: number;
  force: boolean;
  optimize: boolean;
  package: boolean;
  restart: boolean;
  /** `auto`: the fastest mode proven identical for the package (chooseSandboxMode). */
  mode: RequestedMode;
  out: string;
  offline: boolean;
  /** The LLM cost cap; the configuration's (default $1.00) when absent. */
  costCapUsd?: number;
  keepSandbox: boolean;
  suite?: string;
  mirror?: string;
  commandTimeoutMs?: number;
  testTimeoutMs?: number;
  /** False: the package's tests are not run (default true; the userland proof's timing-only runs). */
  runTests?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Default: the committed table (src/sandbox/proof/userlandProofs.json). */
  proofs?: UserlandProofTable;
  /** Added to every sandbox command's environment (proof runs pin SOURCE_DATE_EPOCH). */
  sandboxEnv?: Record<string, string>;
  /** A Go module proxy to fetch go.sum's modules from (default: RVPORT_GOPROXY; none: Debian's). */
  goProxy?: string;
  /** A crate registry's sparse index for Cargo.lock's crates (default: RVPORT_CARGO_REGISTRY). */
  cargoRegistry?: string;
  /** Differential tests against x86_64 after finish (default DEFAULT_DIFFERENTIAL). */
  differential?: boolean;
  /** Replay build.sh as the last step; absent: when the build took under 10 minutes. */
  replay?: boolean;
  /** Build on a remote riscv64 machine: `ssh://user@host[:port]` or a saved target's name. */
  target?: string;
  /**
   * `auto` without a proof: whether an autotools or plain-Make build may take native-userland
   * mode on its own evidence (default true), and the share of other invocations it checks.
   */
  perBuildEvidence?: boolean;
  evidenceSamplePerMille?: number;
  /** Set on the accelerated port that redoes a native-userland build its evidence refused. */
  redoOf?: { reason: string; evidence?: UserlandEvidence };
}

/**
 * Differential tests are off unless asked for: they build the package a second time (natively,
 * cheap next to the emulated run, see BENCHMARKS.md) and their first use provisions the amd64
 * build root (about 3 minutes, 690 MiB).
 */
export const DEFAULT_DIFFERENTIAL = false;

export type { PortResult, PortResultKind } from './PortResult.ts';

/**
 * One port, end to end: validate the SOURCE, answer from the recipe cache when it can, make sure
 * the sandbox exists, run the port graph (resuming an interrupted run of the same package), and
 * write the outputs. Exit codes as SPEC section 2.
 */
export async function runPort(
  request: PortRequest,
  io: {
    signal: AbortSignal;
    progress: (event: ProgressEvent) => void;
    onEngineEvent?: (event: EngineEvent) => void;
  },
): Promise<PortResult> {
  const env = request.env ?? process.env;
  const home = rvportHome(env);
  const suite = request.suite ?? DEFAULT_DEBIAN_SUITE;
  const spec = parseSource(request.source); // throws SourceError (bad input) before anything runs
  const dependencySources = configuredDependencySources(request, env);
  const outDir = resolve(request.out, spec.name);
  await mkdir(outDir, { recursive: true });
  const keys = imageKeys(suite);
  const proofs = request.proofs ?? loadUserlandProofs();
  const layers = { accelerated: keys.accel, 'native-userland': keys.native };
  const proof = proofs.proofs[spec.name];
  const imageOf = (m: SandboxMode) =>
    ({ emulated: keys.rootfs, accelerated: keys.accel, 'native-userland': keys.native })[m];
  // Provisional: a proof holds for one source tree, known once init has acquired the source,
  // and init decides again (services.chooseMode). The cache lookup and provisioning use this one.
  const choice: { mode: TargetMode; reason: string } = request.target
    ? { mode: 'native', reason: `built on the riscv64 machine ${request.target} over SSH` }
    : chooseSandboxMode(request.mode, spec.name, proof, layers);
  const mode = choice.mode;
  const imageId = mode === 'native' ? SSH_TARGET_IMAGE_ID : imageOf(mode);

  // The checkpoint comes first: a port stopped late in finish may have written its cache entry
  // already, and must resume rather than be answered from the cache. --restart discards it
  // without reading it, so a corrupt checkpoint can be discarded too.
  const runId = portRunId(spec);
  const store = new FileStateStore(join(home, 'runs'));
  if (request.restart) await resetWorkflow(runId, { store });
  const loaded = request.restart ? undefined : await store.load(runId);
  const stale = loaded && loaded.status !== 'completed' ? staleCheckpoint(loaded.context) : null;
  if (stale) {
    io.progress({
      type: 'note',
      message: `the interrupted port of ${spec.name} is started again: ${stale}`,
    });
    await resetWorkflow(runId, { store });
  }
  const existing = stale ? undefined : loaded;
  const resuming = !!existing && existing.status !== 'completed';

  const commit = await localCommit(spec);
  const warn = (message: string) => io.progress({ type: 'note', message: `warning: ${message}` });
  const cached =
    request.force || resuming
      ? undefined
      : await new RecipeCache(recipeCacheDir(env)).lookup(
          spec.name,
          imageId,
          { spec: spec.raw, ...(commit ? { commit } : {}) },
          warn,
        );
  if (!request.optimize && cached) return cacheHitResult(cached, outDir, spec.name, request.package);

  const images = await ensureSandboxImages({
    home,
    suite,
    mode,
    env,
    signal: io.signal,
    progress: io.progress,
    ...(request.mirror ? { mirror: request.mirror } : {}),
  });
  const nativeReady = Boolean(
    images.native && images.nativeTools && images.rootfs && !images.native.refusedReason,
  );

  if (existing && !resuming) await resetWorkflow(runId, { store }); // a completed run starts again
  if (!resuming) {
    // A new run starts its logs afresh; a resumed one appends to what the interrupted run wrote.
    for (const file of ['build.log', 'llm-calls.jsonl', 'differential.log'])
      await rm(join(outDir, file), { force: true });
  }
  if (resuming && existing) {
    io.progress({
      type: 'note',
      message: `resuming the interrupted port of ${spec.name} at ${existing.currentNode}`,
    });
  }

  const llmConfig = await loadLlmConfig({
    env,
    home,
    overrides: {
      offline: request.offline,
      ...(request.costCapUsd !== undefined ? { costCapUsd: request.costCapUsd } : {}),
    },
  });
  const spentUsd = resuming ? ((existing?.context as PortState | undefined)?.llm?.costUsd ?? 0) : 0;
  const llm = createLlmClient({ config: llmConfig, callLogPath: join(outDir, 'llm-calls.jsonl'), spentUsd });
  // A resumed port keeps the mode it started in (init chose it for the acquired source).
  const resumedOptions = resuming ? (existing?.context as PortState | undefined)?.options : undefined;
  const startMode = request.target ? 'native' : (resumedOptions?.mode ?? mode);
  if (startMode === 'native' && !request.target) {
    throw new SandboxError(
      'bad-target',
      `the interrupted port of ${spec.name} ran on an SSH target`,
      `rvport port ${request.source} --target ssh://user@host[:port]   (or --restart to start again here)`,
    );
  }
  if (resumedOptions) {
    io.progress({
      type: 'note',
      message: `sandbox mode ${startMode}: ${resumedOptions.modeReason ?? 'the mode the port started in'}`,
    });
  }
  const samplePerMille = request.evidenceSamplePerMille ?? DEFAULT_SAMPLE_PER_MILLE;
  let perBuild = resumedOptions?.modeEvidence === 'per-build';
  // a local instance has modes and the Rust layer to choose; an SSH target has neither
  const local =
    startMode === 'native'
      ? null
      : localSandboxProvider({
          home,
          suite,
          mode: startMode,
          keep: request.keepSandbox,
          imageId: imageOf(startMode),
          ...(perBuild ? { evidence: { samplePerMille } } : {}),
          ...(request.sandboxEnv ? { env: request.sandboxEnv } : {}),
        });
  const sandbox =
    local ??
    sshSandboxProvider({
      home,
      suite,
      target: request.target ?? '',
      ...(request.mirror ? { mirror: request.mirror } : {}),
      ...(request.sandboxEnv ? { env: request.sandboxEnv } : {}),
    });
  const services: PortServices = {
    home,
    ...(dependencySources ? { dependencySources } : {}),
    outDir,
    sourcesDir: join(home, 'sources'),
    buildLog: join(outDir, 'build.log'),
    sandbox,
    contents: contentsLoader(home, suite, request.mirror, io.progress),
    heuristics: recoveryHeuristics,
    commandTimeoutMs: request.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    testTimeoutMs: request.testTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS,
    ...(request.runTests === false ? { runTests: false } : {}),
    progress: io.progress,
    llm,
    suite,
    ...(request.mirror ? { mirror: request.mirror } : {}),
    // a failed load answers null: names are then checked by form only
    installable: once(() =>
      loadInstallablePackages(imageAptLists(sandboxPaths(home).image(keys.rootfs))).catch(() => null),
    ),
    debianSources: once(() =>
      loadSourceIndex({
        aptDir: join(home, 'sources', '.debian-apt'),
        suite,
        ...(request.mirror ? { mirror: request.mirror } : {}),
        log: (line) => io.progress({ type: 'note', message: line }),
      }).catch((error: Error) => {
        io.progress({ type: 'note', message: `Debian's Sources index could not be read: ${error.message}` });
        return null;
      }),
    ),
    // on an SSH target the mode of the options stands: the machine is what it is
    ...(local === null
      ? {}
      : {
          chooseMode: (sourceTree: string, analysis: ModeAnalysis = {}): ModeChoice => {
            if (request.redoOf) return { mode: 'accelerated', reason: redoReason(request.redoOf.reason) };
            const proven = chooseSandboxMode(request.mode, spec.name, proof, layers, sourceTree, {
              available: request.perBuildEvidence !== false && nativeReady && canBuildRecorder(env),
              ...(analysis.buildSystem ? { buildSystem: analysis.buildSystem } : {}),
              samplePerMille,
            });
            const final = modeForLanguages(proven, request.mode, analysis.languages ?? []);
            perBuild = final.mode === 'native-userland' && final.evidence === 'per-build';
            local.useMode(final.mode, imageOf(final.mode), perBuild ? { samplePerMille } : undefined);
            return final;
          },
        }),
    chooseRust: (buildSystem, details) => {
      if (!local) return null;
      const rust = chooseRustLayer(
        buildSystem,
        local.mode,
        spec.name,
        {
          key: keys.rust,
          provisioned: !!(images.rust && images.rustTools),
          ...(images.rust?.refusedReason ? { refusedReason: images.rust.refusedReason } : {}),
        },
        loadRustProofs().proofs[spec.name],
        details?.procMacro === true,
      );
      if (rust?.use) local.useRust(keys.rust);
      return rust?.reason ?? null;
    },
    collectModeEvidence: async (box) =>
      perBuild ? collectUserlandEvidence(box as ChrootSandbox, { home }) : undefined,
  };
  const initial = createPortState(
    { spec: spec.raw, name: spec.name },
    {
      maxAttempts: request.maxAttempts,
      costCapUsd: llm.costCapUsd,
      offline: request.offline,
      mode: request.redoOf ? 'accelerated' : mode,
      modeReason: request.redoOf ? redoReason(request.redoOf.reason) : choice.reason,
      optimize: request.optimize,
      force: request.force,
      differential: request.differential ?? DEFAULT_DIFFERENTIAL,
      replay: request.replay === undefined ? 'auto' : request.replay ? 'on' : 'off',
    },
  );
  // With --optimize a verified entry is built again from its plan (then performance mode runs).
  if (request.optimize && cached?.verification.verdict === 'verified') initial.cachedRecipe = cached;
  const started = Date.now();
  let result: Awaited<ReturnType<typeof runWorkflow<PortState>>>;
  try {
    // an SSH target is reached before the graph runs: an unknown host key or a refused login is
    // the user's to fix (a clear message and exit 1), not a failure of a node
    if (startMode === 'native') await sandbox.get();
    result = await runWorkflow(portGraph, {
      id: runId,
      store,
      logDir: join(home, 'runs', 'logs', runId),
      signal: io.signal,
      services: { port: services },
      context: initial,
      source: spec.raw,
      ...(io.onEngineEvent ? { onEvent: io.onEngineEvent } : {}),
    });
  } finally {
    await sandbox.discard().catch(() => {});
  }
  const state: PortState = {
    ...result.state.context,
    timings: {
      ...result.state.context.timings,
      total: (result.state.context.timings.total ?? 0) + Date.now() - started,
    },
  };
  if (result.outcome === 'failed') {
    // An engine-level failure (a crashed node, the step limit) is an escalation for the user.
    state.buildStatus = 'ESCALATED';
    state.escalationReason ??= `rvport failed in node ${result.state.currentNode}: ${result.error?.message ?? result.state.error?.message}`;
  }
  if (request.redoOf?.evidence) state.userlandEvidence = request.redoOf.evidence;
  const refused = perBuild && result.outcome !== 'interrupted' ? userlandRefusal(state) : undefined;
  if (refused) {
    io.progress({ type: 'note', message: `${redoReason(refused)}` });
    return runPort(
      {
        ...request,
        mode: 'accelerated',
        restart: true,
        force: true,
        redoOf: { reason: refused, ...(state.userlandEvidence ? { evidence: state.userlandEvidence } : {}) },
      },
      io,
    );
  }
  const files = await writePortOutputs(state, outDir, { package: request.package });
  return portResult(
    state,
    { outcome: result.outcome, resumed: result.resumed, stoppedAt: result.state.currentNode },
    outDir,
    files,
    request.package,
  );
}

/**
 * The commit a local git repository is at: a cache entry made from another commit of the same
 * folder is not an answer for this one.
 */
async function localCommit(spec: SourceSpec): Promise<string | null> {
  if (spec.kind !== 'directory' || !existsSync(join(spec.path, '.git'))) return null;
  return localHeadCommit(spec.path);
}
