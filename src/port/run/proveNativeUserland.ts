import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { rvportHome } from '../../config/rvportHome.ts';
import type { SandboxMode, UserlandProof } from '../../sandbox/index.ts';
import {
  compareBuildTrees,
  DEFAULT_SUITE,
  formatDifference,
  imageKeys,
  listInstances,
  openSandbox,
  sandboxPaths,
  type TreeComparison,
  userlandLayerKeys,
} from '../../sandbox/index.ts';
import { runPort } from './runPort.ts';

/**
 * A mode a proof run ports in: a sandbox mode, or `auto` (what `--mode auto` chooses with no
 * proof-table entry: native-userland on the build's own evidence, redone in accelerated mode
 * when the evidence refuses it).
 */
export type ProofMode = SandboxMode | 'auto';

/** One port of the package in one mode, its build tree kept for the comparison. */
export interface ModeRun {
  mode: ProofMode;
  /** The mode the port built in (for `auto`: what it chose, or accelerated after a refusal). */
  builtIn?: string;
  /** For `auto`: how the mode was chosen (`per-build` evidence, or the reason it was not). */
  modeReason?: string;
  /** The same plan built natively in the amd64 build root (the differential node's x86_64 build). */
  x86BuildSeconds?: number;
  /**
   * The port's recipe (build.sh) built once more in a fresh instance of the mode the port built
   * in: the build alone, as the x86_64 side builds it, without the search for the recipe (the
   * attempts, the repairs' installs) that the build node's time includes.
   */
  replaySeconds?: number;
  result: string;
  exitCode: number;
  buildSystem: string;
  /** Time in the build node (all attempts), in seconds. */
  buildSeconds: number;
  /** The whole port (analysis, build, tests, outputs), in seconds. */
  totalSeconds: number;
  /** The kept instance whose workspace holds the build tree. */
  instance?: string;
  /** The git tree id of the source the port built. */
  sourceTree?: string;
  /** The machine's 1-minute load average when the port started and when it ended. */
  load?: [number, number];
  /** False for a timing-only run (a mode not compared): the package's tests were not run. */
  testsRun?: boolean;
  /** The test step's exit status and start (runPackageTests), when it ran. */
  tests?: { exitCode: number | null; startedAt?: string };
}

export interface NativeUserlandProofRun {
  name: string;
  runs: ModeRun[];
  /** Accelerated against native-userland; absent when either run left no build tree. */
  comparison?: TreeComparison;
  proof?: UserlandProof;
}

export interface ProveOptions {
  /**
   * Modes to port in, in order; accelerated and native-userland are compared when both run. Any
   * other mode (emulated) is timed only: its port skips the package's tests and keeps no instance.
   */
  modes?: readonly ProofMode[];
  /** Also build the accelerated run's plan natively for x86_64 and time it (differential tests on). */
  x86?: boolean;
  /** Replay the `auto` run's recipe in a fresh instance and time it (see ModeRun.replaySeconds). */
  replayAuto?: boolean;
  /** Where the ports write their outputs (OUT/MODE/NAME). */
  out: string;
  home?: string;
  suite?: string;
  commandTimeoutMs?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

export const PROOF_MODES: readonly ProofMode[] = ['accelerated', 'native-userland'];
/** Modes whose build trees are kept and compared (the others are timed only). */
const COMPARED_MODES: readonly ProofMode[] = [...PROOF_MODES, 'auto'];
/** Differences kept in a proof (the first ones; the count is in the comparison). */
const KEPT_DIFFERENCES = 20;

/**
 * The proof that native-userland mode changes nothing for one package: the real port
 * (`rvport port --force --offline`) runs in accelerated mode and in native-userland mode, each in a
 * kept instance, and the two build trees are compared file by file (compareBuildTrees: configure's
 * outputs, the artifacts and everything else, normalising only timestamps in text). Both runs get
 * the same SOURCE_DATE_EPOCH and PYTHONHASHSEED, so compiled-in build dates (GCC's __DATE__ and
 * __TIME__) and meson's pickled state agree instead of being masked. The instances are removed afterwards.
 */
export async function proveNativeUserland(
  source: string,
  options: ProveOptions,
): Promise<NativeUserlandProofRun> {
  const modes = options.modes ?? PROOF_MODES;
  const suite = options.suite ?? DEFAULT_SUITE;
  const home = options.home ?? rvportHome();
  const paths = sandboxPaths(home);
  const runHome = await proofHome(home);
  const log = options.log ?? (() => {});
  const signal = options.signal ?? new AbortController().signal;
  const runs: ModeRun[] = [];
  let name = source;
  // __DATE__, __TIME__ and `date` in a build read the clock; both runs get the same one
  const sourceDateEpoch = String(Math.floor(Date.now() / 1000));
  try {
    for (const mode of modes) {
      const compared = COMPARED_MODES.includes(mode);
      const loadBefore = round(loadavg()[0] ?? 0);
      const before = new Set((await listInstances(paths)).map((i) => i.id));
      const result = await runPort(
        {
          source,
          maxAttempts: 5,
          force: true,
          optimize: false,
          package: false,
          restart: true,
          mode,
          out: `${options.out}/${mode}`,
          offline: true,
          costCapUsd: 0,
          keepSandbox: compared,
          runTests: compared,
          // timing runs: nothing after the build that is not the experiment (but the x86_64
          // build and the auto run's replay, when they are part of it)
          replay: Boolean(options.replayAuto) && mode === 'auto',
          differential: Boolean(options.x86) && mode === 'accelerated',
          suite,
          // the mode is the experiment: no proof table may redirect it
          proofs: { command: '', proofs: {} },
          // and the same hash seed: meson pickles sets whose order follows Python's hash seed
          sandboxEnv: { SOURCE_DATE_EPOCH: sourceDateEpoch, PYTHONHASHSEED: '0' },
          ...(options.commandTimeoutMs ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
          env: { ...process.env, RVPORT_HOME: runHome },
        },
        { signal, progress: () => {} },
      );
      const state = result.state;
      name = state?.source.name ?? name;
      const builtIn = state?.options.mode ?? mode;
      const kept = compared
        ? (await listInstances(paths)).find(
            (i) => !before.has(i.id) && i.ownerPid === process.pid && i.mode === builtIn && i.keep,
          )
        : undefined;
      const x86Ms = state?.differential?.x86BuildMs;
      const run: ModeRun = {
        mode,
        ...(mode === 'auto'
          ? { builtIn, modeReason: state?.options.modeEvidence ?? state?.options.modeReason ?? '-' }
          : {}),
        ...(x86Ms !== undefined ? { x86BuildSeconds: round(x86Ms / 1000) } : {}),
        ...(state?.replay?.replayed === 'yes'
          ? { replaySeconds: round(state.replay.durationMs / 1000) }
          : {}),
        result: result.kind,
        exitCode: result.exitCode,
        buildSystem: state?.plan?.buildSystem ?? state?.packageAnalysis?.buildSystem ?? '-',
        buildSeconds: round((state?.timings.build ?? 0) / 1000),
        totalSeconds: round((state?.timings.total ?? 0) / 1000),
        ...(kept ? { instance: kept.id } : {}),
        ...(state?.source.tree ? { sourceTree: state.source.tree } : {}),
        load: [loadBefore, round(loadavg()[0] ?? 0)],
        testsRun: compared,
        ...(state?.tests?.ran
          ? {
              tests: {
                exitCode: state.tests.exitCode,
                ...(state.tests.startedAt ? { startedAt: state.tests.startedAt } : {}),
              },
            }
          : {}),
      };
      runs.push(run);
      log(
        `${name} ${mode}: ${run.result} (exit ${run.exitCode}), build ${run.buildSeconds} s, port ${run.totalSeconds} s`,
      );
    }
    const accelerated = runs.find((r) => r.mode === 'accelerated');
    // an auto run compares when it built in the fast userland (its build is the one accepted)
    const native =
      runs.find((r) => r.mode === 'native-userland') ??
      runs.find((r) => r.mode === 'auto' && r.builtIn === 'native-userland');
    if (!accelerated?.instance || !native?.instance) return { name, runs };
    const failedTestsStartedAt = bothTestStepsFailed(accelerated, native);
    const comparison = await compareBuildTrees(
      join(paths.instance(accelerated.instance), 'build'),
      join(paths.instance(native.instance), 'build'),
      ['accelerated', 'native-userland'],
      failedTestsStartedAt ? { failedTestsStartedAt } : {},
    );
    if (accelerated.result !== native.result) {
      comparison.identical = false;
      comparison.differences.unshift({
        path: '(port result)',
        kind: 'other',
        detail: `accelerated ${accelerated.result}, native-userland ${native.result}`,
      });
    }
    if (accelerated.sourceTree !== native.sourceTree) {
      comparison.identical = false;
      comparison.differences.unshift({
        path: '(source)',
        kind: 'other',
        detail: `the two ports built different sources (trees ${accelerated.sourceTree} and ${native.sourceTree})`,
      });
    }
    const keys = imageKeys(suite);
    const proof: UserlandProof = {
      identical: comparison.identical,
      ...(accelerated.sourceTree ? { sourceTree: accelerated.sourceTree } : {}),
      result: accelerated.result,
      layers: userlandLayerKeys(keys),
      files: comparison.files,
      differences: comparison.differences.slice(0, KEPT_DIFFERENCES).map(formatDifference),
      ...(comparison.leftByFailedTests
        ? { leftByFailedTests: comparison.leftByFailedTests.slice(0, KEPT_DIFFERENCES).map(formatDifference) }
        : {}),
      checkedAt: new Date().toISOString(),
    };
    return { name, runs, comparison, proof };
  } finally {
    for (const run of runs) {
      if (run.instance) await (await openSandbox(run.instance, { home })).destroy();
    }
    await rm(runHome, { recursive: true, force: true });
  }
}

/** When the test step started in each run, if it failed in both (see CompareOptions). */
function bothTestStepsFailed(a: ModeRun, b: ModeRun): [number, number] | undefined {
  const started = (run: ModeRun) =>
    run.tests?.exitCode && run.tests.startedAt ? Date.parse(run.tests.startedAt) : Number.NaN;
  const times: [number, number] = [started(a), started(b)];
  return times.every(Number.isFinite) ? times : undefined;
}

/**
 * An RVPORT_HOME of the proof's own that shares the sandbox images and the Debian indexes of
 * `home` (links) but not its runs, sources or recipe cache: a proof neither resumes nor locks
 * out a port of the same package running elsewhere, and leaves no recipe behind.
 */
async function proofHome(home: string): Promise<string> {
  const own = await mkdtemp(join(tmpdir(), 'rvport-proof-home-'));
  for (const shared of ['sandbox', 'debian-contents', 'debian-apt']) {
    await mkdir(join(home, shared), { recursive: true });
    await symlink(join(home, shared), join(own, shared));
  }
  return own;
}

function round(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}
