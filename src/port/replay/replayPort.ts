import { lstat, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { rvportHome } from '../../config/rvportHome.ts';
import { DEFAULT_DEBIAN_SUITE } from '../../debian/debianMirror.ts';
import {
  hashFileConfined,
  MAX_COPY_BYTES,
  readFileConfined,
  readTextConfined,
  writeFileAtomic,
  writeJsonAtomic,
} from '../../fs/index.ts';
import { RecipeCache } from '../../recipes/RecipeCache.ts';
import { recipeCacheDir } from '../../recipes/recipeCacheDir.ts';
import {
  createSandbox,
  imageKeys,
  modeImageKey,
  SANDBOX_MODES,
  SANDBOX_WORKSPACE,
  type Sandbox,
  type SandboxMode,
  SSH_TARGET_IMAGE_ID,
} from '../../sandbox/index.ts';
import {
  type AskedSource,
  acquireSource,
  fetchRulesFor,
  headTree,
  parseSource,
} from '../../sources/index.ts';
import { inspectFileIn } from '../../verify/index.ts';
import { copySourceIn } from '../graph/nodes/buildSteps.ts';
import { DEBIAN_PACKAGE_NAME } from '../outputs/BuildScript.ts';
import { MAX_ARTIFACT_BYTES } from '../outputs/copyArtifactsOut.ts';
import { PORT_STATE_VERSION, type PortState, type ReplayRecord } from '../state/PortState.ts';
import { copyDependenciesIn } from '../steps/copyDependenciesIn.ts';
import { artifactLocation, SANDBOX_DEST, SANDBOX_SRC } from '../steps/planFromAnalysis.ts';
import { type ArtifactComparison, artifactsMatch, compareArtifact } from './compareArtifacts.ts';
import { ReplayError } from './ReplayError.ts';
import { renderReplay } from './renderReplay.ts';

/** How long build.sh may run in the replay (one port's build, with its package installs). */
export const REPLAY_TIMEOUT_MS = 2 * 60 * 60 * 1000;
/** Where the replay puts build.sh, packages.txt and patches/ inside the instance. */
const RECIPE_IN_SANDBOX = `${SANDBOX_WORKSPACE}/recipe`;
const PATCH_NAME = /^[0-9]{4,}-[a-z0-9-]+\.patch$/;

export interface ReplayRequest {
  /** OUT/NAME of a port. */
  dir: string;
  /** The sandbox mode; default the mode the port built in. */
  mode?: SandboxMode;
  suite?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  signal?: AbortSignal;
  progress?: (message: string) => void;
  /**
   * The SOURCE the caller asked for and its fetch rules. A state naming another SOURCE (or any,
   * when absent: `rvport replay` reads state.json from a folder) is acquired as origin `state`.
   */
  sourceFetch?: AskedSource;
}

export interface ReplayResult {
  record: ReplayRecord;
  comparisons: ArtifactComparison[];
  /** 0 when the artifacts match, 1 otherwise. */
  exitCode: number;
  files: string[];
}

/**
 * Runs a port's build.sh the way a person would: in a fresh sandbox instance (the image, nothing
 * the port installed), on a fresh copy of the source the port named (acquired as a port acquires
 * it, and checked to be the same tree), with the packages of packages.txt (installed through the
 * sandbox, which has no network for apt-get) and nothing else. Then holds the artifacts against
 * the port's: names and ELF facts must match; same bytes is reported where the build is
 * reproducible. Writes replay.md and replay.log, and records the outcome in state.json and in
 * the port's recipe-cache entry.
 */
export async function replayPort(request: ReplayRequest): Promise<ReplayResult> {
  const env = request.env ?? process.env;
  const home = rvportHome(env);
  const suite = request.suite ?? DEFAULT_DEBIAN_SUITE;
  const outDir = resolve(request.dir);
  const progress = request.progress ?? (() => {});
  const state = await readState(outDir);
  // a port built on a remote riscv64 machine replays here under full emulation (the faithful
  // local userland; the remote's own is not available to a replay)
  const mode = request.mode ?? (state.options.mode === 'native' ? 'emulated' : state.options.mode);
  if (!SANDBOX_MODES.includes(mode))
    throw new ReplayError(
      'bad-mode',
      `unknown sandbox mode ${JSON.stringify(mode)} (${SANDBOX_MODES.join(', ')})`,
    );
  const recipe = await recipeFiles(outDir, state);
  const started = Date.now();
  const log = join(outDir, 'replay.log');
  await rm(log, { force: true });

  const finish = async (replayed: boolean, reason: string, comparisons: ArtifactComparison[]) => {
    const record: ReplayRecord = {
      replayed: replayed ? 'yes' : 'no',
      reason,
      at: new Date().toISOString(),
      mode,
      durationMs: Date.now() - started,
      compared: comparisons.length,
      identical: comparisons.filter((c) => c.identical === true).length,
    };
    await writeFileAtomic(join(outDir, 'replay.md'), renderReplay(state, record, comparisons));
    await writeJsonAtomic(join(outDir, 'state.json'), { ...state, replay: record });
    await recordInCache(home, env, suite, state, record, progress);
    progress(`replayed: ${record.replayed} (${reason})`);
    return {
      record,
      comparisons,
      exitCode: replayed ? 0 : 1,
      files: ['replay.md', 'state.json', ...((await exists(log)) ? ['replay.log'] : [])],
    };
  };

  progress(`acquiring ${state.source.spec}`);
  const acquired = await acquireSource(parseSource(state.source.spec), {
    workDir: join(home, 'sources'),
    suite,
    fetch: fetchRulesFor(
      state.source.spec,
      request.sourceFetch ?? { rules: { origin: 'state', allowPrivateAddresses: false } },
    ),
    ...(request.signal ? { signal: request.signal } : {}),
    log: progress,
  });
  const tree = await headTree(acquired.gitDir);
  const same = state.source.tree ? tree === state.source.tree : acquired.commit === state.source.commit;
  if (!same) {
    const was = state.source.tree
      ? `tree ${state.source.tree}`
      : `commit ${state.source.commit ?? 'unknown'}`;
    return finish(
      false,
      `the source is not the one the port built (now tree ${tree}, the port had ${was})`,
      [],
    );
  }

  progress(`replaying build.sh in a fresh ${mode} sandbox instance`);
  const sandbox = await createSandbox({ home, suite, mode });
  try {
    await copySourceIn(acquired.dir, sandbox);
    const missing = await fetchedDependenciesIn(state, home, sandbox);
    if (missing) return finish(false, missing, []);
    await copyRecipeIn(sandbox, recipe);
    if (recipe.packages.length) {
      progress(`installing packages.txt: ${recipe.packages.join(' ')}`);
      const installed = await sandbox.installPackages(recipe.packages, {
        logFile: log,
        timeoutMs: request.timeoutMs ?? REPLAY_TIMEOUT_MS,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      if (installed.exitCode !== 0)
        return finish(
          false,
          `installing packages.txt failed (exit ${installed.exitCode}; see replay.log)`,
          [],
        );
    }
    progress('running build.sh');
    const run = await sandbox.run(['sh', `${RECIPE_IN_SANDBOX}/build.sh`, SANDBOX_SRC], {
      cwd: SANDBOX_WORKSPACE,
      // the packages are in (installPackages); DESTDIR is where the port installed, so embedded paths match
      env: { DESTDIR: SANDBOX_DEST, SKIP_APT_GET: '1' },
      timeoutMs: request.timeoutMs ?? REPLAY_TIMEOUT_MS,
      logFile: log,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    if (run.exitCode !== 0)
      return finish(
        false,
        `build.sh failed (exit ${run.exitCode}${run.timedOut ? ', time limit' : ''}; see replay.log)`,
        [],
      );
    const comparisons = await compareAll(sandbox, outDir, state);
    if (comparisons.length === 0) return finish(false, 'the port recorded no artifact to compare', []);
    const match = artifactsMatch(comparisons);
    const identical = comparisons.filter((c) => c.identical === true).length;
    const withCopy = comparisons.filter((c) => c.identical !== null).length;
    return finish(
      match,
      match
        ? `the ${comparisons.length} artifacts have the port's names and ELF facts; ${identical} of ${withCopy} copied ones have identical bytes`
        : `${comparisons.filter((c) => !c.found || c.differences.length).length} of ${comparisons.length} artifacts are missing or differ`,
      comparisons,
    );
  } finally {
    await sandbox.destroy().catch(() => {});
  }
}

/**
 * The Go modules or crates the port fetched host-side, from rvport's store into the instance,
 * where build.sh's commands look for them (`/build/deps`): a replay has what the port had, and
 * the sandbox still has no network. Returns why not, when the store lacks them (another
 * machine, or a store cleared since).
 */
async function fetchedDependenciesIn(
  state: PortState,
  home: string,
  sandbox: Sandbox,
): Promise<string | null> {
  const fetched = state.fetchedDependencies;
  if (!fetched) return null;
  if (
    (fetched.kind !== 'go' && fetched.kind !== 'cargo') ||
    !Array.isArray(fetched.paths) ||
    !fetched.paths.every((p) => typeof p === 'string')
  )
    return 'state.json names fetched dependencies in a form rvport does not write';
  try {
    await copyDependenciesIn(fetched, home, sandbox);
    return null;
  } catch (error) {
    const option = fetched.kind === 'go' ? '--go-proxy' : '--cargo-registry';
    return `the port's fetched dependencies are not all in this machine's store (${(error as Error).message}); port again with ${option} to fetch them`;
  }
}

/** The largest state.json read: a port's state is KiB to a few MiB (its command log is bounded). */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;

/** state.json of OUT/NAME, checked enough to replay (it is a file on disk: anything may be in it). */
async function readState(outDir: string): Promise<PortState> {
  const file = join(outDir, 'state.json');
  // inside OUT/NAME only (a link out is refused), within a bound: a file anyone may have written
  const read = readTextConfined(outDir, 'state.json', { maxBytes: MAX_STATE_BYTES });
  if (read.text === null && read.code === 'not-found') {
    throw new ReplayError(
      'no-state',
      `${outDir} holds no state.json: give the OUT/NAME folder of a port (a cache hit has none; port again with --force)`,
    );
  }
  if (read.text === null) throw new ReplayError('bad-state', `state.json is refused: ${read.reason}`);
  const text = read.text;
  let state: PortState;
  try {
    state = JSON.parse(text) as PortState;
  } catch (error) {
    throw new ReplayError('bad-state', `${file} is not JSON: ${(error as Error).message}`);
  }
  if (
    typeof state !== 'object' ||
    state === null ||
    state.formatVersion !== PORT_STATE_VERSION ||
    typeof state.source?.spec !== 'string' ||
    typeof state.source?.name !== 'string' ||
    !Array.isArray(state.artifacts) ||
    !Array.isArray(state.patches) ||
    typeof state.options?.mode !== 'string'
  )
    throw new ReplayError('bad-state', `${file} is not the state of a port of this rvport version`);
  if (state.buildStatus !== 'SUCCESS')
    throw new ReplayError(
      'not-built',
      `the port in ${outDir} did not build (status ${String(state.buildStatus)}): there is nothing to replay`,
    );
  return state;
}

interface RecipeFiles {
  script: Buffer;
  packages: string[];
  patches: { name: string; data: Buffer }[];
}

/** build.sh, packages.txt and the patches build.sh applies: plain files of OUT/NAME, names checked. */
async function recipeFiles(outDir: string, state: PortState): Promise<RecipeFiles> {
  const read = async (rel: string, what: string) => {
    try {
      return readFileConfined(outDir, rel, { maxBytes: MAX_COPY_BYTES });
    } catch (error) {
      throw new ReplayError('no-script', `${what} (${(error as Error).message})`);
    }
  };
  const noScript = `no usable build.sh in ${outDir}: port again with this rvport to write it`;
  const script = await read('build.sh', noScript);
  const listed = (await read('packages.txt', noScript)).toString('utf8');
  const packages = listed.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  const bad = packages.find((p) => !DEBIAN_PACKAGE_NAME.test(p));
  if (bad !== undefined)
    throw new ReplayError(
      'bad-packages',
      `packages.txt names ${JSON.stringify(bad)}, not a Debian package name`,
    );
  const patches: RecipeFiles['patches'] = [];
  for (const p of state.patches) {
    if (typeof p?.name !== 'string' || !PATCH_NAME.test(p.name))
      throw new ReplayError(
        'bad-state',
        `state.json names a patch ${JSON.stringify(p?.name)} rvport never writes`,
      );
    patches.push({
      name: p.name,
      data: await read(posix.join('patches', p.name), `patches/${p.name} is missing`),
    });
  }
  return { script, packages, patches };
}

/** The recipe files into the instance, from a host folder of rvport's own. */
async function copyRecipeIn(sandbox: Sandbox, recipe: RecipeFiles): Promise<void> {
  const staging = await mkdtemp(join(tmpdir(), 'rvport-replay-'));
  try {
    const dir = join(staging, 'recipe');
    await mkdir(join(dir, 'patches'), { recursive: true });
    await writeFileAtomic(join(dir, 'build.sh'), recipe.script);
    await writeFileAtomic(join(dir, 'packages.txt'), recipe.packages.map((p) => `${p}\n`).join(''));
    for (const p of recipe.patches) await writeFileAtomic(join(dir, 'patches', p.name), p.data);
    await sandbox.copyIn(dir, RECIPE_IN_SANDBOX);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The port's programs and libraries (as the recipe lists them) against the replay's files. */
async function compareAll(sandbox: Sandbox, outDir: string, state: PortState): Promise<ArtifactComparison[]> {
  const comparisons: ArtifactComparison[] = [];
  for (const artifact of state.artifacts.filter((a) => a.role !== 'object' && a.role !== 'other')) {
    if (typeof artifact?.path !== 'string') continue;
    const { folder, rel } = artifactLocation(artifact.path);
    const root = join(sandbox.workspace, folder);
    const builtAt = folder === 'dest' ? SANDBOX_DEST : SANDBOX_SRC;
    // the replayed build wrote this tree: read inside it only
    const facts = await inspectFileIn(root, rel, artifact.path, builtAt);
    // digests read in chunks: the replayed build may have written a file of any size
    const replay = tryDigest(root, rel);
    const port = tryDigest(join(outDir, 'artifacts'), posix.normalize(artifact.path));
    comparisons.push(compareArtifact(artifact, facts, { port, replay }));
  }
  return comparisons;
}

function tryDigest(root: string, rel: string): string | null {
  try {
    return hashFileConfined(root, rel, { maxBytes: MAX_ARTIFACT_BYTES }).sha256;
  } catch {
    return null;
  }
}

/** The port's cache entry (same package, image and source) learns the replay's outcome. */
async function recordInCache(
  home: string,
  env: NodeJS.ProcessEnv,
  suite: string,
  state: PortState,
  record: ReplayRecord,
  progress: (message: string) => void,
): Promise<void> {
  const keys = imageKeys(suite);
  const imageId =
    state.options.mode === 'native' ? SSH_TARGET_IMAGE_ID : modeImageKey(keys, state.options.mode);
  try {
    const cache = new RecipeCache(recipeCacheDir({ ...env, RVPORT_HOME: home }));
    const entry = await cache.lookup(state.source.name, imageId, {
      spec: state.source.spec,
      ...(state.source.commit ? { commit: state.source.commit } : {}),
    });
    if (entry) await cache.put({ ...entry, replay: record });
  } catch (error) {
    progress(`warning: the cache entry was not updated: ${(error as Error).message}`);
  }
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}
