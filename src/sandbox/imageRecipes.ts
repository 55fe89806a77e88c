import { createHash } from 'node:crypto';

/** Bumped when the way an image is built changes, so old caches are not mistaken for new ones. */
export const IMAGE_FORMAT_VERSION = 1;

import { DEFAULT_DEBIAN_SUITE } from '../debian/debianMirror.ts';

export const DEFAULT_SUITE = DEFAULT_DEBIAN_SUITE;

/** What goes into one mmdebstrap tree; the cache key is a hash of exactly this. */
export interface ImageRecipe {
  kind: 'rootfs' | 'tools';
  suite: string;
  architecture: string;
  variant: string;
  packages: readonly string[];
  /** Removed with `dpkg --purge --force-depends` after installation. */
  purge: readonly string[];
  formatVersion: number;
}

/**
 * The riscv64 build userland. Besides build-essential (from the buildd variant), what ports keep
 * needing; meson and ninja are baked in because apt takes ~225 s to add them under emulation
 * (python byte-compilation), the autotools ~18 s, scons ~26 s.
 */
export const ROOTFS_PACKAGES: readonly string[] = [
  'autoconf',
  'automake',
  'autopoint',
  'autotools-dev',
  'ca-certificates',
  'cmake',
  'file',
  'git',
  'libtool',
  'meson',
  'ninja-build',
  'pkg-config',
  'python3',
  'scons',
];

/**
 * The x86_64 tree bind-mounted at /native in accelerated mode: Debian's riscv64 cross toolchain
 * of the same GCC and binutils versions as the rootfs's, and the Go toolchain of the same release.
 */
export const TOOLS_PACKAGES: readonly string[] = [
  'binutils-riscv64-linux-gnu',
  'g++-14-riscv64-linux-gnu',
  'gcc-14-riscv64-linux-gnu',
  'golang-go',
];

/**
 * The cross glibc would win over the rootfs's headers, and its libc.so script names paths that
 * do not exist inside the rootfs; the rootfs's own glibc is what a riscv64 build must use.
 */
export const TOOLS_PURGE: readonly string[] = [
  'libc6-dev-riscv64-cross',
  'linux-libc-dev-riscv64-cross',
  'libc6-riscv64-cross',
];

export function rootfsRecipe(suite = DEFAULT_SUITE): ImageRecipe {
  return {
    kind: 'rootfs',
    suite,
    architecture: 'riscv64',
    variant: 'buildd',
    packages: ROOTFS_PACKAGES,
    purge: [],
    formatVersion: IMAGE_FORMAT_VERSION,
  };
}

/**
 * The x86_64 twin of the riscv64 rootfs, for differential tests: the same suite, variant and
 * packages on amd64, so a plan that built on riscv64 builds here with the same package names and
 * versions of the same release. A recipe of its own: the other images keep their keys.
 */
export function x86RootfsRecipe(suite = DEFAULT_SUITE): ImageRecipe {
  return { ...rootfsRecipe(suite), architecture: 'amd64' };
}

/**
 * What the native-userland tools tree adds to the accelerated one: the x86_64 twins of the
 * swapped userland that the `essential` variant does not bring (dash, bash, coreutils, sed, grep,
 * findutils and diffutils are Essential; mawk only comes along as a dependency today), and the
 * full perl the autoconf and automake scripts run under (perl-base alone lacks modules they use).
 */
export const NATIVE_USERLAND_EXTRA_PACKAGES: readonly string[] = ['m4', 'make', 'mawk', 'perl'];

export function toolsRecipe(suite = DEFAULT_SUITE): ImageRecipe {
  return {
    kind: 'tools',
    suite,
    architecture: 'amd64',
    variant: 'essential',
    packages: TOOLS_PACKAGES,
    purge: TOOLS_PURGE,
    formatVersion: IMAGE_FORMAT_VERSION,
  };
}

/**
 * The x86_64 tree of native-userland mode: the accelerated tools plus the userland twins. A tree
 * of its own (not a change to the accelerated one), so accelerated images keep their keys.
 */
export function nativeToolsRecipe(suite = DEFAULT_SUITE): ImageRecipe {
  const tools = toolsRecipe(suite);
  return { ...tools, packages: [...tools.packages, ...NATIVE_USERLAND_EXTRA_PACKAGES] };
}

/**
 * What the Rust tools tree adds to the accelerated one: Debian's x86_64 rustc and cargo (of the
 * same version as the rootfs's riscv64 ones: rust/compareRustToolchains.ts checks), which bring
 * the x86_64 std for build scripts and proc-macros and the x86_64 gcc that links them.
 */
export const RUST_TOOLS_EXTRA_PACKAGES: readonly string[] = ['cargo', 'rustc'];

/**
 * The x86_64 tree of accelerated Cargo builds: the accelerated tools plus Rust. A tree of its own,
 * so the accelerated and native-userland images (and the proofs that name them) keep their keys,
 * and only ports that build with Cargo pay for downloading Rust.
 */
export function rustToolsRecipe(suite = DEFAULT_SUITE): ImageRecipe {
  const tools = toolsRecipe(suite);
  return { ...tools, packages: [...tools.packages, ...RUST_TOOLS_EXTRA_PACKAGES] };
}

/** A short stable hash of the inputs (the mirror is not one: any mirror serves the same suite). */
export function imageKey(recipe: ImageRecipe): string {
  const canonical = JSON.stringify({
    ...recipe,
    packages: [...recipe.packages].sort(),
    purge: [...recipe.purge].sort(),
  });
  return `${recipe.kind}-${recipe.suite}-${recipe.architecture}-${sha256(canonical).slice(0, 16)}`;
}

/** Bumped when the accelerated layer's script changes (only that layer is rebuilt). */
export const ACCELERATED_LAYER_VERSION = 2;

/** The accelerated layer depends on exactly one rootfs, one tools tree and its script. */
export function acceleratedLayerKey(rootfsKey: string, toolsKey: string): string {
  return `accel-${sha256(`${rootfsKey}\n${toolsKey}\n${IMAGE_FORMAT_VERSION}\n${ACCELERATED_LAYER_VERSION}`).slice(0, 16)}`;
}

/** Bumped when the native-userland layer's script or swap rules change (only that layer is rebuilt). */
export const NATIVE_USERLAND_LAYER_VERSION = 2;

/**
 * The native-userland layer: the accelerated script and the userland swap, run over the rootfs
 * with the native-userland tools tree (both scripts' versions are inputs).
 */
export function nativeUserlandLayerKey(rootfsKey: string, nativeToolsKey: string): string {
  const inputs = [
    rootfsKey,
    nativeToolsKey,
    IMAGE_FORMAT_VERSION,
    ACCELERATED_LAYER_VERSION,
    NATIVE_USERLAND_LAYER_VERSION,
  ];
  return `native-${sha256(inputs.join('\n')).slice(0, 16)}`;
}

/** Bumped when the Rust layer's script changes (only that layer is rebuilt). */
export const RUST_LAYER_VERSION = 2;

/** The Rust layer: the accelerated script and the Rust one, run over the rootfs with the Rust tools tree. */
export function rustLayerKey(rootfsKey: string, rustToolsKey: string): string {
  const inputs = [
    rootfsKey,
    rustToolsKey,
    IMAGE_FORMAT_VERSION,
    ACCELERATED_LAYER_VERSION,
    RUST_LAYER_VERSION,
  ];
  return `rustaccel-${sha256(inputs.join('\n')).slice(0, 16)}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
