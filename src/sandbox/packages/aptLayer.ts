import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ChrootSandbox } from '../chroot/ChrootSandbox.ts';
import { createInstance, type NewInstance } from '../chroot/instanceStore.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';
import type { SubordinateIds } from '../userns/subordinateIds.ts';
import { giveToSandboxRoot } from '../userns/treeOwner.ts';
import { type DpkgBackend, nativeDpkgBackend, placeDpkgBackend } from './dpkgBackend.ts';
import { type MaintainerPerl, placeMaintainerPerl } from './maintainerPerl.ts';
import { type NativeApt, placeNativeApt } from './nativeApt.ts';
import { archivePrefixes } from './parseAptUris.ts';
import { placeByteCompileSkip } from './skipByteCompile.ts';

/** Part of the layer's key: what the layer holds besides the caches. */
const APT_LAYER_VERSION = 5;
export const APT_LAYER_RECORD = 'apt.json';
/** apt's binary caches, as `apt-cache gencaches` writes them. */
export const APT_CACHES = ['pkgcache.bin', 'srcpkgcache.bin'] as const;
const APT_CACHE_DIR = '/var/cache/apt';
/**
 * Inside the sandbox. debconf's hook runs dpkg-preconfigure, a perl pass over every package's
 * templates before dpkg unpacks them, to ask questions early; nothing is asked in a sandbox (the
 * frontend is noninteractive), and debconf's confmodule runs a package's config script itself
 * when its postinst starts, so dropping the pass loses nothing but its time.
 */
export const NO_PRECONFIGURE_CONF = '/etc/apt/apt.conf.d/99rvport-no-preconfigure';
const NO_PRECONFIGURE = `// rvport: no debconf preconfigure pass (the frontend is noninteractive; postinst runs config)
#clear DPkg::Pre-Install-Pkgs;
`;
const GENCACHES_TIMEOUT_MS = 15 * 60_000;

export interface AptLayer {
  key: string;
  /** The layers it was made over, topmost first. */
  lowerKeys: string[];
  /** Why it holds no caches, when apt could not make them (the setting is still there). */
  cachesMissing?: string;
  /**
   * The package extractor installs run (dpkgBackend.ts): the tools tree's x86_64 dpkg-deb, or
   * why the riscv64 one stays (no tools tree in emulated mode, another dpkg version).
   */
  dpkgBackend?: DpkgBackend;
  /**
   * The apt installs run (nativeApt.ts): the x86_64 build of the rootfs's apt version, or why the
   * riscv64 one stays (no tools tree in emulated mode, another apt version in the index).
   */
  nativeApt?: NativeApt;
  /**
   * The maintainer scripts' perl helpers run under the x86_64 perl (maintainerPerl.ts), or why
   * none is (the tools tree has no perl of the rootfs's version outside native-userland mode).
   */
  maintainerPerl?: MaintainerPerl;
  /** The byte-compilers maintainer scripts find as no-ops (skipByteCompile.ts). */
  byteCompileSkipped?: string[];
}

/** The stack of image layers an instance is made of, and how it runs. */
export type LayerStack = Pick<NewInstance, 'mode' | 'lowerKeys' | 'toolsKey' | 'mirror' | 'emulatorKey'>;

/**
 * The apt layer of a stack: apt's binary caches of the stack's package lists and dpkg status,
 * made once by apt inside a throwaway instance of the stack, and the setting above, stacked at
 * run time over the stack (the layers below, their keys and the proofs keyed by them stay as
 * they are). Without it every instance's first apt call parses the archive's 54 MB package list
 * into those caches under emulation (6–9 s), and every install pays the preconfigure pass
 * (~3 s): together about half of installing a small package's Build-Depends (BENCHMARKS.md).
 * apt checks the caches against the lists' and the status file's sizes and times on every call
 * and remakes them when they no longer match, so a stale cache costs time, never correctness.
 * Where the stack has an x86_64 tools tree with the same dpkg, the layer also holds the x86_64
 * package extractor that installs run (dpkgBackend.ts), and, where the tools tree's package index
 * has the rootfs's apt version, the x86_64 apt that installs resolve with (nativeApt.ts; under
 * emulation apt spends ~3 s per call building its dependency cache over the 65,000 packages of
 * the lists, twice per install), and, where the tools tree has the rootfs's perl, the maintainer
 * scripts' perl helpers under that perl (maintainerPerl.ts). Made once per stack; the key names
 * the stack.
 */
export async function ensureAptLayer(
  paths: SandboxPaths,
  stack: LayerStack,
  ids: SubordinateIds,
): Promise<AptLayer> {
  const key = aptLayerKey(stack);
  const dir = paths.image(key);
  const existing = await readFile(join(dir, APT_LAYER_RECORD), 'utf8').catch(() => undefined);
  if (existing) return JSON.parse(existing) as AptLayer;
  const temp = join(dirname(dir), `.${key}-${process.pid}`);
  await rm(temp, { recursive: true, force: true });
  const tree = join(temp, 'tree');
  try {
    const cacheDir = join(tree, APT_CACHE_DIR);
    await mkdir(cacheDir, { recursive: true });
    const { cachesMissing, nativeApt } = await inThrowawayInstance(paths, stack, (instance) =>
      fillFromInstance(paths, stack, instance, tree, cacheDir),
    );
    const conf = join(tree, NO_PRECONFIGURE_CONF);
    await mkdir(dirname(conf), { recursive: true });
    await writeFile(conf, NO_PRECONFIGURE, { mode: 0o644 });
    const rootfsKey = stack.lowerKeys.at(-1);
    const dpkgBackend: DpkgBackend =
      stack.toolsKey && rootfsKey
        ? await nativeDpkgBackend(paths, rootfsKey, stack.toolsKey)
        : { refused: 'no x86_64 tools tree in this mode' };
    if ('link' in dpkgBackend) await placeDpkgBackend(tree, dpkgBackend);
    const maintainerPerl: MaintainerPerl =
      stack.toolsKey && rootfsKey
        ? await placeMaintainerPerl(paths, rootfsKey, stack.toolsKey, tree).catch((error: Error) => ({
            refused: error.message.split('\n')[0] ?? 'failed',
          }))
        : { refused: 'no x86_64 tools tree in this mode' };
    const byteCompileSkipped = await placeByteCompileSkip(tree);
    // the tree belongs to the sandbox's root, as the other layers do
    await giveToSandboxRoot(ids, [tree]);
    const layer: AptLayer = {
      key,
      lowerKeys: [...stack.lowerKeys],
      ...(cachesMissing ? { cachesMissing } : {}),
      dpkgBackend,
      nativeApt,
      maintainerPerl,
      byteCompileSkipped,
    };
    await writeFile(join(temp, APT_LAYER_RECORD), `${JSON.stringify(layer, null, 2)}\n`);
    try {
      await rename(temp, dir);
    } catch (error) {
      // another process made it first
      if (!(await stat(join(dir, APT_LAYER_RECORD)).catch(() => undefined))) throw error;
    }
    return layer;
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

export function aptLayerKey(stack: LayerStack): string {
  const what = [APT_LAYER_VERSION, stack.mode, stack.toolsKey ?? '-', ...stack.lowerKeys].join('\n');
  return `apt-${createHash('sha256').update(what).digest('hex').slice(0, 16)}`;
}

/** What the throwaway instance gives the layer. */
interface FromInstance {
  cachesMissing?: string;
  nativeApt: NativeApt;
}

/**
 * Runs `fill` in a throwaway instance of the stack (network off, nothing of a package's in it);
 * without an instance, the layer records why it has neither caches nor the x86_64 apt.
 */
async function inThrowawayInstance(
  paths: SandboxPaths,
  stack: LayerStack,
  fill: (instance: ChrootSandbox) => Promise<FromInstance>,
): Promise<FromInstance> {
  return createInstance(paths, { ...stack, keep: false }).then(
    async (instance) => {
      try {
        return await fill(instance);
      } finally {
        await instance.destroy().catch(() => undefined);
      }
    },
    (error: Error) => {
      const why = `no instance to make them in: ${error.message.split('\n')[0]}`;
      return { cachesMissing: why, nativeApt: { refused: why } };
    },
  );
}

/**
 * apt's caches by `apt-cache gencaches`, taken out through the sandbox's copy out (regular files
 * only, no link followed); then the x86_64 apt (nativeApt.ts), which the caches make quicker to
 * check. A failure of either is recorded, never thrown: the layer only saves time.
 */
async function fillFromInstance(
  paths: SandboxPaths,
  stack: LayerStack,
  instance: ChrootSandbox,
  tree: string,
  cacheDir: string,
): Promise<FromInstance> {
  const cachesMissing = await takeCaches(instance, cacheDir).catch(
    (error: Error) => error.message.split('\n')[0],
  );
  // both caches or neither
  if (cachesMissing) for (const name of APT_CACHES) await rm(join(cacheDir, name), { force: true });
  const nativeApt = await placeNativeApt(paths, stack, instance, tree, archivePrefixes(stack.mirror)).catch(
    (error: Error): NativeApt => ({ refused: error.message.split('\n')[0] ?? 'failed' }),
  );
  return { ...(cachesMissing ? { cachesMissing } : {}), nativeApt };
}

async function takeCaches(instance: ChrootSandbox, into: string): Promise<string | undefined> {
  const result = await instance.run(['apt-cache', '-q', 'gencaches'], { timeoutMs: GENCACHES_TIMEOUT_MS });
  if (result.exitCode !== 0)
    return `apt-cache gencaches exited ${result.exitCode}: ${result.stderr.trim().split('\n')[0] ?? ''}`;
  for (const name of APT_CACHES) {
    const target = join(into, name);
    await instance.copyOut(`${APT_CACHE_DIR}/${name}`, target);
    if (!(await lstat(target)).isFile()) return `${APT_CACHE_DIR}/${name} is not a regular file`;
  }
  return undefined;
}
