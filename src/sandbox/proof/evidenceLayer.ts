import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, link, mkdir, readFile, readlink, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SandboxError } from '../errors.ts';
import { type ImageRecord, imageTree } from '../imageStore.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';
import { STATIC_COMPILER_HINT, staticCompiler } from '../staticCompiler.ts';
import type { SubordinateIds } from '../userns/subordinateIds.ts';
import { giveToSandboxRoot } from '../userns/treeOwner.ts';
import { PROGRAM_RULES, renderRules } from './invocationRules.ts';
import { EVIDENCE_LOG_START } from './readInvocationLog.ts';

const run = promisify(execFile);

export const RECORDER_SOURCE = fileURLToPath(new URL('./evidence/recorder.c', import.meta.url));
/** Inside the sandbox. */
export const EVIDENCE_DIR = '/usr/lib/rvport-evidence';
export const EVIDENCE_LOG_DIR = '/var/lib/rvport-evidence';
export const EVIDENCE_LOG = `${EVIDENCE_LOG_DIR}/calls.log`;
export const EVIDENCE_RECORD = 'evidence.json';
/** Part of the layer's key: what the layer holds beyond the recorder and its rules. */
const EVIDENCE_LAYER_VERSION = 4;

/**
 * Invocations in a thousand run twice besides the machine-dependent ones. Measured (BENCHMARKS.md,
 * bench/userland-evidence.ts): a riscv64 twin of a text tool costs ~25 ms under qemu against ~1 ms
 * natively, and configure makes a few thousand calls, so 2 % keeps the evidence near 5 % of the
 * build.
 */
export const DEFAULT_SAMPLE_PER_MILLE = 20;

export interface EvidenceLayer {
  key: string;
  /** The native-userland layer it stands above. */
  nativeKey: string;
  samplePerMille: number;
  /** Swapped paths that now go through the recorder. */
  recorded: number;
}

/**
 * The evidence layer of a native-userland layer: the recorder (compiled here, statically, for
 * x86_64), its rules, and a hard link to it at every swapped path of a program the rules name, stacked above the native layer
 * at run time. The native layer itself, its key and the proof table keyed by it stay as they are.
 * Made once per native layer, recorder source and rules; the key names all three.
 */
export async function ensureEvidenceLayer(
  paths: SandboxPaths,
  native: ImageRecord,
  ids: SubordinateIds,
  options: { samplePerMille?: number; twinEnvironment?: 'same' | 'reversed' } = {},
): Promise<EvidenceLayer> {
  const samplePerMille = options.samplePerMille ?? DEFAULT_SAMPLE_PER_MILLE;
  const source = await readFile(RECORDER_SOURCE, 'utf8');
  // the twins run under qemu-user (binfmt_misc): the host's 7.2 reverses the environment it
  // hands over, the images' own emulator (qemu-user 10) keeps its order
  const rules = renderRules({ samplePerMille, twinEnvironment: options.twinEnvironment ?? 'reversed' });
  const compiler = staticCompiler();
  if (!compiler)
    throw new SandboxError('host-not-ready', 'no C compiler for the native-userland recorder', {
      fix: STATIC_COMPILER_HINT,
    });
  const key = `evidence-${createHash('sha256').update(`${EVIDENCE_LAYER_VERSION}\n${native.key}\n${compiler}\n${source}\n${rules}`).digest('hex').slice(0, 16)}`;
  const dir = paths.image(key);
  const existing = await readFile(join(dir, EVIDENCE_RECORD), 'utf8').catch(() => undefined);
  if (existing) return JSON.parse(existing) as EvidenceLayer;
  // only the programs the native layer links to their x86_64 twins (the autoconf and automake
  // scripts it rewrote to run on the x86_64 perl stay as they are), and of those only the ones the
  // rules know: a program without a rule (rm, mv, mkdir, dash, …) is never machine-dependent and
  // never run twice, so the recorder could only log it, at the price of one more exec per call
  const nativeTree = imageTree(paths, native.key);
  const swapped: string[] = [];
  for (const path of native.swapped ?? []) {
    if (!/^\/[\w./+[-]+$/.test(path) || !Object.hasOwn(PROGRAM_RULES, basename(path))) continue;
    const target = await readlink(join(nativeTree, path)).catch(() => undefined);
    if (target === `/native${path}`) swapped.push(path);
  }
  if (swapped.length === 0) {
    throw new SandboxError(
      'image-missing',
      `the native-userland layer ${native.key} records no swapped programs`,
    );
  }
  const temp = join(dirname(dir), `.${key}-${process.pid}`);
  await rm(temp, { recursive: true, force: true });
  const tree = join(temp, 'tree');
  const recorder = join(tree, EVIDENCE_DIR, 'recorder');
  await mkdir(dirname(recorder), { recursive: true });
  try {
    await run(compiler, ['-O2', '-static', '-o', recorder, RECORDER_SOURCE]);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw new SandboxError(
      'host-not-ready',
      `cannot compile the native-userland recorder: ${(error as Error).message.split('\n')[0]}`,
      { fix: STATIC_COMPILER_HINT },
    );
  }
  await writeFile(join(tree, EVIDENCE_DIR, 'rules'), rules);
  for (const path of swapped) {
    await mkdir(join(tree, dirname(path)), { recursive: true });
    await link(recorder, join(tree, path));
  }
  await mkdir(join(tree, EVIDENCE_LOG_DIR), { recursive: true });
  await chmod(join(tree, EVIDENCE_LOG_DIR), 0o1777);
  // the log starts in the layer; the recorder appends to it (a build that removes it is refused)
  await writeFile(join(tree, EVIDENCE_LOG), `${EVIDENCE_LOG_START}\n`, { mode: 0o666 });
  await chmod(join(tree, EVIDENCE_LOG), 0o666);
  // the tree belongs to the sandbox's root, as the other layers do
  await giveToSandboxRoot(ids, [tree]);
  const layer: EvidenceLayer = { key, nativeKey: native.key, samplePerMille, recorded: swapped.length };
  await writeFile(join(temp, EVIDENCE_RECORD), `${JSON.stringify(layer, null, 2)}\n`);
  try {
    await rename(temp, dir);
  } catch (error) {
    // another process made it first
    await rm(temp, { recursive: true, force: true });
    if (!(await stat(join(dir, EVIDENCE_RECORD)).catch(() => undefined))) throw error;
  }
  return layer;
}

/**
 * Whether this host can compile the recorder (a C compiler and a static C library): without
 * them native-userland mode is not offered on per-build evidence, rather than failing the port.
 */
export function canBuildRecorder(env: NodeJS.ProcessEnv = process.env): boolean {
  return staticCompiler(env) !== undefined;
}
