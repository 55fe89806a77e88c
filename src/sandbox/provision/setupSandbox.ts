import { realpathSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { debianMirror } from '../../debian/debianMirror.ts';
import { runProcess } from '../../process/runProcess.ts';
import { adoptImages } from '../adoptImages.ts';
import type { HostCheck } from '../checkHost.ts';
import { instanceCommand } from '../chroot/instanceMounts.ts';
import { compareToolchains } from '../compareToolchains.ts';
import { createSandbox } from '../createSandbox.ts';
import { readInstalledPackages } from '../dpkgStatus.ts';
import { modeRefused, SandboxError } from '../errors.ts';
import { imageKeys, type SandboxImages } from '../findImages.ts';
import {
  DEFAULT_SUITE,
  type ImageRecipe,
  imageKey,
  nativeToolsRecipe,
  rootfsRecipe,
  rustToolsRecipe,
  toolsRecipe,
} from '../imageRecipes.ts';
import { type ImageRecord, imageTree } from '../imageStore.ts';
import { prepareHost } from '../prepareHost.ts';
import { probeOverlay } from '../probeOverlay.ts';
import { removeTree } from '../removeTree.ts';
import type { SandboxMode } from '../Sandbox.ts';
import { type SandboxPaths, sandboxPaths } from '../sandboxPaths.ts';
import { readSubordinateIds } from '../userns/subordinateIds.ts';
import { giveToSandboxRoot } from '../userns/treeOwner.ts';
import { acceleratedLayerScript } from './acceleratedLayerScript.ts';
import { compareRustToolchains, indexVersions, RUST_PAIRS, readAptIndexes } from './compareRustToolchains.ts';
import { CROSS_SPECS_PATH, crossSpecs, GO_ENV_DEFAULTS } from './crossSpecs.ts';
import { mmdebstrapArgs } from './mmdebstrapArgs.ts';
import { provisionAccess } from './provisionAccess.ts';
import { host, provisionImage, removeAbandonedTemps } from './provisionImage.ts';
import { RUST_TARGET_LIBDIR, rustLayerScript } from './rustLayerScript.ts';
import {
  NATIVE_PERL_SCRIPT_PACKAGES,
  PERL_PACKAGES,
  planUserlandSwap,
  readPackageFiles,
  SWAPPED_PACKAGES,
  userlandSwapScript,
} from './userlandSwap.ts';

export interface SetupOptions {
  home?: string;
  suite?: string;
  /**
   * The mode that must work when setup returns (default native-userland): `accelerated` also
   * builds the tools tree and its layer; `native-userland` everything, since a package not proven
   * identical in it falls back to accelerated.
   */
  mode?: SandboxMode;
  /** Default: the Debian mirror of the machine's apt configuration. */
  mirror?: string;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
  /** Skip the host preparation (tests that already checked it). */
  skipHostPreparation?: boolean;
  /** Also the Rust tools tree and layer (accelerated Cargo builds); they download Rust. */
  rust?: boolean;
}

export interface SetupResult extends SandboxImages {
  rootfs: ImageRecord;
  /** What \`uname -m\` said in a fresh instance of the requested mode after setup. */
  selfTest: string;
  hostChecks: HostCheck[];
  durationMs: number;
}

/**
 * Provisions (or finds cached) the riscv64 rootfs and, for accelerated mode, the x86_64 tools tree
 * and the layer that swaps the toolchain; for native-userland mode also its tools tree and the
 * layer that swaps the userland too. A second call with everything cached only checks the host.
 */
export async function setupSandbox(options: SetupOptions = {}): Promise<SetupResult> {
  const started = performance.now();
  const suite = options.suite ?? DEFAULT_SUITE;
  const mode = options.mode ?? 'native-userland';
  const paths = sandboxPaths(options.home);
  const progress = options.onProgress ?? (() => {});
  const hostChecks = options.skipHostPreparation
    ? []
    : await prepareHost({ onProgress: progress, signal: options.signal });
  await mkdir(paths.images, { recursive: true });
  await removeAbandonedTemps(paths);
  const overlay = await probeOverlay(paths.instances);
  if (!overlay.ok) throw new SandboxError('host-not-ready', overlay.detail);

  const keys = imageKeys(suite);
  // trees are made as host root, then handed to the subordinate ids every sandbox runs as
  const ids = readSubordinateIds();
  const access = provisionAccess(ids, realpathSync(paths.images), process.getuid?.() === 0);
  const own = async (record: ImageRecord) =>
    (await adoptImages(paths, [record], ids, progress))[0] as ImageRecord;
  let mirror = options.mirror;
  const needMirror = async () => {
    mirror ??= debianMirror() ?? undefined;
    if (!mirror) {
      throw new SandboxError(
        'no-mirror',
        "no Debian mirror found in this machine's apt sources (/etc/apt)",
        'rvport sandbox setup --mirror URL   (a Debian archive URL)',
      );
    }
    return mirror;
  };

  const debootstrap = async (recipe: ImageRecipe, tree: string) => {
    const url = await needMirror();
    const cache = join(paths.debCache, `${recipe.suite}-${recipe.architecture}`);
    await mkdir(cache, { recursive: true });
    progress(
      `${imageKey(recipe)}: mmdebstrap ${recipe.variant} ${recipe.suite} ${recipe.architecture} from ${url}`,
    );
    await host(mmdebstrapArgs(recipe, tree, url, cache, access.mmdebstrapMode), {
      signal: options.signal,
      onStderr: lineForwarder((line) => {
        if (line.startsWith('I: ') || line.startsWith('E: ')) progress(`  ${line}`);
      }),
    });
    return { recipe, mirror: url, ...(access.treeOwner ? { owner: access.treeOwner } : {}) };
  };

  const rootfs = await own(
    await provisionImage(
      paths,
      {
        key: keys.rootfs,
        kind: 'rootfs',
        suite,
        architecture: 'riscv64',
        tarball: true,
        build: async (tree) => {
          const extra = await debootstrap(rootfsRecipe(suite), tree);
          // mount points for the workspace and the tools tree, so no instance has to create them
          await access.mkdir(join(tree, 'build'));
          await access.mkdir(join(tree, 'native'));
          return { ...extra, toolchain: toolchainVersions(await readInstalledPackages(tree)) };
        },
      },
      progress,
      access,
    ),
  );
  if (mode === 'emulated') {
    const selfTest = await selfTestInstance(options.home, suite, mode);
    return { suite, rootfs, hostChecks, selfTest, durationMs: performance.now() - started };
  }

  const toolsStep = (key: string, recipe: ImageRecipe, finish?: (tree: string) => Promise<void>) => ({
    key,
    kind: 'tools' as const,
    suite,
    architecture: 'amd64',
    tarball: true,
    build: async (tree: string) => {
      const extra = await debootstrap(recipe, tree);
      await access.chroot(tree, ['dpkg', '--purge', '--force-depends', ...recipe.purge]);
      const specs = await access.chroot(tree, ['riscv64-linux-gnu-gcc-14', '-dumpspecs']);
      await access.writeFile(join(tree, CROSS_SPECS_PATH), crossSpecs(specs));
      await access.appendFile(join(tree, 'usr/lib/go/go.env'), GO_ENV_DEFAULTS);
      await finish?.(tree);
      return { ...extra, toolchain: toolchainVersions(await readInstalledPackages(tree)) };
    },
  });
  const tools = await own(
    await provisionImage(paths, toolsStep(keys.tools, toolsRecipe(suite)), progress, access),
  );

  // the x86_64 rustc's sysroot is the tools tree's /usr: its riscv64 std is the rootfs's, once a
  // port has installed it (until then the link dangles and rustc says the target is missing)
  const linkRustTarget = (tree: string) =>
    access
      .treeCommand(['ln', '-sfn', `/${RUST_TARGET_LIBDIR}`, join(tree, RUST_TARGET_LIBDIR)])
      .then(() => {});
  async function setupRust() {
    const rustTools = await own(
      await provisionImage(
        paths,
        toolsStep(keys.rustTools, rustToolsRecipe(suite), linkRustTarget),
        progress,
        access,
      ),
    );
    const rust = await own(
      await provisionImage(
        paths,
        {
          key: keys.rust,
          kind: 'accel',
          suite,
          architecture: 'riscv64',
          tarball: false,
          build: async (tree, temp) => {
            await mkdir(tree);
            const rootfsTree = imageTree(paths, keys.rootfs);
            const toolsTree = imageTree(paths, keys.rustTools);
            const installed = await readInstalledPackages(toolsTree);
            const gcc = compareToolchains(await readInstalledPackages(rootfsTree), installed);
            const rustc = compareRustToolchains(
              indexVersions(await readAptIndexes(rootfsTree), RUST_PAIRS),
              installed,
            );
            const base = {
              derivedFrom: [keys.rootfs, keys.rustTools],
              owner: { uid: ids.uid.start, gid: ids.gid.start },
              toolchain: { check: [...gcc.details, ...rustc.details].join('; ') },
            };
            if (!gcc.match) return { ...base, refusedReason: gcc.reason };
            if (!rustc.match) return { ...base, refusedReason: rustc.reason };
            progress(`${keys.rust}: diverting the riscv64 toolchain and Rust to x86_64`);
            const script = [acceleratedLayerScript(), rustLayerScript()].join('\n');
            await buildLayer(paths, keys.rootfs, keys.rustTools, tree, temp, script, options.signal);
            await expectDiversion(tree, '/usr/bin/riscv64-linux-gnu-gcc-14', 'Rust');
            await expectDiversion(tree, '/usr/bin/rustc', 'Rust');
            return base;
          },
        },
        progress,
        access,
      ),
    );
    if (rust.refusedReason) throw modeRefused('accelerated', rust.refusedReason);
    return { rustTools, rust };
  }

  const accel = await own(
    await provisionImage(
      paths,
      {
        key: keys.accel,
        kind: 'accel',
        suite,
        architecture: 'riscv64',
        tarball: false,
        build: async (tree, temp) => {
          await mkdir(tree);
          const comparison = compareToolchains(
            await readInstalledPackages(imageTree(paths, keys.rootfs)),
            await readInstalledPackages(imageTree(paths, keys.tools)),
          );
          const base = {
            derivedFrom: [keys.rootfs, keys.tools],
            owner: { uid: ids.uid.start, gid: ids.gid.start },
            toolchain: { check: comparison.details.join('; ') },
          };
          if (!comparison.match) return { ...base, refusedReason: comparison.reason };
          progress(`${keys.accel}: diverting the riscv64 toolchain to the x86_64 cross compilers`);
          await buildLayer(
            paths,
            keys.rootfs,
            keys.tools,
            tree,
            temp,
            acceleratedLayerScript(),
            options.signal,
          );
          await expectDiversion(tree, '/usr/bin/riscv64-linux-gnu-gcc-14', 'accelerated');
          return base;
        },
      },
      progress,
      access,
    ),
  );
  if (accel.refusedReason) throw modeRefused('accelerated', accel.refusedReason);
  const rustImages = options.rust ? await setupRust() : {};
  if (mode === 'accelerated') {
    const selfTest = await selfTestInstance(options.home, suite, mode);
    if (options.rust) await selfTestInstance(options.home, suite, mode, true);
    return {
      suite,
      rootfs,
      tools,
      accel,
      ...rustImages,
      hostChecks,
      selfTest,
      durationMs: performance.now() - started,
    };
  }

  const nativeTools = await own(
    await provisionImage(paths, toolsStep(keys.nativeTools, nativeToolsRecipe(suite)), progress, access),
  );
  const native = await own(
    await provisionImage(
      paths,
      {
        key: keys.native,
        kind: 'native',
        suite,
        architecture: 'riscv64',
        tarball: false,
        build: async (tree, temp) => {
          await mkdir(tree);
          const rootfsTree = imageTree(paths, keys.rootfs);
          const toolsTree = imageTree(paths, keys.nativeTools);
          const comparison = compareToolchains(
            await readInstalledPackages(rootfsTree),
            await readInstalledPackages(toolsTree),
          );
          const plan = planUserlandSwap(
            await readPackageFiles(rootfsTree, [
              ...SWAPPED_PACKAGES,
              ...PERL_PACKAGES,
              ...NATIVE_PERL_SCRIPT_PACKAGES,
            ]),
            await readPackageFiles(toolsTree, [...SWAPPED_PACKAGES, ...PERL_PACKAGES]),
          );
          const base = {
            derivedFrom: [keys.rootfs, keys.nativeTools],
            owner: { uid: ids.uid.start, gid: ids.gid.start },
            toolchain: { check: comparison.details.join('; ') },
            swapped: [...plan.swaps, ...plan.perlScripts],
            keptEmulated: plan.kept,
          };
          if (!comparison.match) return { ...base, refusedReason: comparison.reason };
          progress(
            `${keys.native}: diverting the toolchain, ${plan.swaps.length} userland programs and ${plan.perlScripts.length} perl scripts to x86_64`,
          );
          const script = [acceleratedLayerScript(), userlandSwapScript(plan)].join('\n');
          await buildLayer(paths, keys.rootfs, keys.nativeTools, tree, temp, script, options.signal);
          await expectDiversion(tree, '/usr/bin/riscv64-linux-gnu-gcc-14', 'native-userland');
          if (plan.swaps.includes('/usr/bin/sed'))
            await expectDiversion(tree, '/usr/bin/sed', 'native-userland');
          return base;
        },
      },
      progress,
      access,
    ),
  );
  if (native.refusedReason) throw modeRefused('native-userland', native.refusedReason);
  const selfTest = await selfTestInstance(options.home, suite, mode);
  if (options.rust) await selfTestInstance(options.home, suite, 'accelerated', true);
  return {
    suite,
    rootfs,
    tools,
    accel,
    nativeTools,
    native,
    ...rustImages,
    hostChecks,
    selfTest,
    durationMs: performance.now() - started,
  };
}

/** Setup only succeeds if a fresh instance really runs riscv64 code (and, accelerated, the cross gcc). */
async function selfTestInstance(
  home: string | undefined,
  suite: string,
  mode: SandboxMode,
  rust = false,
): Promise<string> {
  const box = await createSandbox({ home, suite, mode, rust });
  try {
    const probe = {
      emulated: 'uname -m',
      // the Rust layer's gcc is the same; its cargo must be the x86_64 one
      accelerated: `uname -m && gcc -dumpmachine && readlink -f /usr/bin/gcc${rust ? ' && readlink -f /usr/bin/cargo' : ''}`,
      'native-userland':
        'uname -m && gcc -dumpmachine && readlink -f /usr/bin/gcc && readlink -f /usr/bin/sed && sh /usr/share/misc/config.guess',
    }[mode];
    const result = await box.run(['/bin/sh', '-c', probe], { timeoutMs: 60_000 });
    const lines = result.stdout.trim().split('\n');
    const ok =
      result.exitCode === 0 &&
      lines[0] === 'riscv64' &&
      (mode === 'emulated' || (lines[1] === 'riscv64-linux-gnu' && lines[2]?.startsWith('/native/'))) &&
      (!rust || lines[3] === '/native/usr/bin/cargo') &&
      (mode !== 'native-userland' ||
        (lines[3]?.startsWith('/native/') && lines[4] === 'riscv64-unknown-linux-gnu'));
    if (!ok) {
      throw new SandboxError(
        'provision-failed',
        `a fresh ${mode} instance does not work: ${result.stdout.trim()} ${result.stderr.trim()}`.trim(),
      );
    }
    return result.stdout.trim();
  } finally {
    await box.destroy();
  }
}

/**
 * Runs a layer script in the emulated rootfs with the tools tree at /native and `tree` as the
 * overlay's upper layer; returns the script's output.
 */
async function buildLayer(
  paths: SandboxPaths,
  rootfsKey: string,
  toolsKey: string,
  tree: string,
  temp: string,
  script: string,
  signal?: AbortSignal,
): Promise<string> {
  const dirs = { work: join(temp, 'work'), merged: join(temp, 'merged'), workspace: join(temp, 'build') };
  for (const dir of Object.values(dirs)) await mkdir(dir, { recursive: true });
  const ids = readSubordinateIds();
  await giveToSandboxRoot(ids, [tree, dirs.work, dirs.workspace]);
  const rootfsTree = realpathSync(imageTree(paths, rootfsKey));
  const toolsTree = realpathSync(imageTree(paths, toolsKey));
  const tempDir = realpathSync(temp);
  const command = instanceCommand(
    {
      // the layer's own folders live in temp; the two trees may be links to another home's
      viewRoots: [rootfsTree, toolsTree, tempDir],
      ids,
      lowerDirs: [rootfsTree],
      upperDir: join(tempDir, relative(temp, tree)),
      workDir: join(tempDir, relative(temp, dirs.work)),
      mergedDir: join(tempDir, relative(temp, dirs.merged)),
      workspace: join(tempDir, relative(temp, dirs.workspace)),
      nativeTree: toolsTree,
      network: false,
    },
    '/',
    ['/bin/sh', '-c', script],
    { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root', LANG: 'C.UTF-8' },
  );
  const result = await runProcess({
    command,
    clearEnv: true,
    env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' },
    timeoutMs: 20 * 60_000,
    signal,
  });
  if (result.exitCode !== 0) {
    throw new SandboxError(
      'provision-failed',
      `building the layer ${tree} failed:\n${result.stderr.slice(-3000)}`,
    );
  }
  for (const dir of Object.values(dirs)) await removeTree(dir);
  return result.stdout;
}

/** Checks in the tree itself that the swap happened, not only that the script exited 0. */
async function expectDiversion(tree: string, path: string, layer: string): Promise<void> {
  const diversions = await readFile(join(tree, 'var/lib/dpkg/diversions'), 'utf8').catch(() => '');
  if (!diversions.includes(`${path}.riscv64`)) {
    throw new SandboxError('provision-failed', `the ${layer} layer has no diversion for ${path}`);
  }
}

function toolchainVersions(
  packages: Awaited<ReturnType<typeof readInstalledPackages>>,
): Record<string, string> {
  const wanted =
    /^(gcc-14|g\+\+-14|binutils|gcc-14-riscv64-linux-gnu|g\+\+-14-riscv64-linux-gnu|binutils-riscv64-linux-gnu|golang-1\.\d+-go|libc6|libc6-dev)$/;
  const versions: Record<string, string> = {};
  for (const p of packages) if (wanted.test(p.name)) versions[`${p.name}:${p.architecture}`] = p.version;
  return versions;
}

/** Calls `onLine` for each complete line of a stream. */
export function lineForwarder(onLine: (line: string) => void): (chunk: Buffer) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line.trimEnd());
  };
}
