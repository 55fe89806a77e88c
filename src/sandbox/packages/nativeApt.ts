import { constants } from 'node:fs';
import { copyFile, mkdir, mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, posix } from 'node:path';
import { type BinaryPackage, parseBinaryPackages } from '../../debian/parseBinaryPackages.ts';
import { MAX_INDEX_FILE_BYTES, treeListsDir } from '../../debian/readPackageIndex.ts';
import type { ChrootSandbox } from '../chroot/ChrootSandbox.ts';
import { readInstalledPackages } from '../dpkgStatus.ts';
import { imageTree } from '../imageStore.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';
import { downloadDebs } from './downloadDebs.ts';
import { APT_FRONTEND_DIR, NATIVE_APT_ROOT } from './nativeAptPaths.ts';
import { type AptDownload, isAllowedUri } from './parseAptUris.ts';
import { assertBytes, assertCount } from './planHostDownloads.ts';

/** The x86_64 loader, where the tools tree's programs find it. */
const LOADER = '/lib64/ld-linux-x86-64.so.2';
/**
 * What both apts resolve when the layer is made, to check that the x86_64 one answers as the
 * riscv64 one does: a build tool of every Debian release, not installed in a build root, whose
 * dependencies (perl modules, gettext, file, man-db) make a resolution of some size.
 */
export const NATIVE_APT_CHECK_PACKAGES = ['debhelper'] as const;
const CHECK_TIMEOUT_MS = 10 * 60_000;
/** Where the packages wait in the throwaway instance (not /tmp, which each command gets anew). */
const STAGED_DEBS = '/root/rvport-native-apt-debs';

/** The x86_64 apt an apt layer holds, or why installs keep the riscv64 one. */
export type NativeApt = { version: string; architecture: string; packages: string[] } | { refused: string };

export interface NativeAptPlan {
  version: string;
  /** The amd64 packages to unpack: apt, its library and the libraries the tools tree lacks. */
  downloads: AptDownload[];
  packages: string[];
}

/**
 * Which amd64 packages give an x86_64 `apt-get` of `rootfsAptVersion`, read from the tools tree's
 * Packages index: `apt` of exactly that version, and every library it needs (following Depends
 * and Pre-Depends through `lib*` packages) that the tools tree does not have installed. Programs
 * apt depends on (gpgv, adduser) are left out: resolving and installing local packages runs none
 * of them. Refused, with the reason, when the index lacks that version or a library.
 */
export function planNativeApt(input: {
  packagesIndex: string;
  rootfsAptVersion: string | undefined;
  toolsInstalled: ReadonlySet<string>;
  mirror: string;
  allowedPrefixes: readonly string[];
}): NativeAptPlan | { refused: string } {
  if (!input.rootfsAptVersion) return { refused: 'apt is not installed in the rootfs' };
  const index = new Map<string, BinaryPackage>();
  for (const p of parseBinaryPackages(input.packagesIndex))
    if (p.architecture === 'amd64' || p.architecture === 'all') index.set(p.name, p);
  const apt = index.get('apt');
  if (apt?.version !== input.rootfsAptVersion)
    return {
      refused: `the tools tree's package index has apt ${apt?.version ?? 'not at all'}, the rootfs ${input.rootfsAptVersion}`,
    };
  const chosen: BinaryPackage[] = [];
  const queue = [apt];
  const seen = new Set(['apt']);
  while (queue.length > 0) {
    const next = queue.shift() as BinaryPackage;
    chosen.push(next);
    for (const group of (next.depends ?? '').split(',')) {
      const names = group
        .split('|')
        .map((alternative) => alternative.trim().split(/[\s(:]/)[0] ?? '')
        .filter(Boolean);
      const first = names[0];
      if (!first || names.some((n) => input.toolsInstalled.has(n) || seen.has(n))) continue;
      if (!first.startsWith('lib')) continue;
      const found = index.get(first);
      if (!found) return { refused: `${next.name} needs ${first}, which the tools tree's index lacks` };
      seen.add(first);
      queue.push(found);
    }
  }
  const downloads: AptDownload[] = [];
  for (const p of chosen) {
    const uri = `${input.mirror.replace(/\/+$/, '')}/${p.filename}`;
    if (!isAllowedUri(uri, input.allowedPrefixes) || p.size === undefined)
      return { refused: `${p.name}: no download in the archive's pool (${p.filename || 'no Filename'})` };
    downloads.push({
      uri,
      fileName: posix.basename(p.filename),
      size: p.size,
      hash: { algorithm: 'sha256', hex: p.sha256 },
    });
  }
  return { version: apt.version, downloads, packages: chosen.map((p) => `${p.name}=${p.version}`) };
}

/** The `apt-get` of the frontend folder: the x86_64 one, resolving for the rootfs's architecture. */
export function nativeAptFrontend(architecture: string): string {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(architecture)) throw new Error(`not an architecture: ${architecture}`);
  return `#!/bin/sh
# rvport: the x86_64 apt of the rootfs's apt version, resolving for ${architecture} (sandbox/packages/nativeApt.ts)
exec ${LOADER} --library-path ${NATIVE_APT_ROOT}/usr/lib/x86_64-linux-gnu ${NATIVE_APT_ROOT}/usr/bin/apt-get -o APT::Architecture=${architecture} "$@"
`;
}

/**
 * Puts the x86_64 apt into an apt layer's `tree`, using `instance` (a throwaway instance of the
 * layer's stack): the host downloads the amd64 packages (checked against the tools tree's index,
 * which mmdebstrap took from the signed release), the instance unpacks them with dpkg-deb and
 * resolves NATIVE_APT_CHECK_PACKAGES with both apts (unpackAndCheck), and only when both answer
 * the same is the unpacked tree taken out (through the sandbox's copy out) and the frontend placed.
 */
export async function placeNativeApt(
  paths: SandboxPaths,
  stack: { lowerKeys: readonly string[]; toolsKey?: string; mirror?: string },
  instance: ChrootSandbox,
  tree: string,
  allowedPrefixes: readonly string[],
): Promise<NativeApt> {
  const rootfsKey = stack.lowerKeys.at(-1);
  if (!stack.toolsKey || !rootfsKey) return { refused: 'no x86_64 tools tree in this mode' };
  if (!stack.mirror) return { refused: 'the stack names no Debian mirror to fetch apt from' };
  const toolsTree = imageTree(paths, stack.toolsKey);
  const rootfs = await readInstalledPackages(imageTree(paths, rootfsKey));
  const architecture = rootfs.find((p) => p.name === 'dpkg')?.architecture ?? '';
  const index = await readAmd64Index(toolsTree);
  if (typeof index !== 'string') return index;
  const plan = planNativeApt({
    packagesIndex: index,
    rootfsAptVersion: rootfs.find((p) => p.name === 'apt')?.version,
    toolsInstalled: new Set((await readInstalledPackages(toolsTree)).map((p) => p.name)),
    mirror: stack.mirror,
    allowedPrefixes,
  });
  if ('refused' in plan) return plan;
  assertCount(plan.downloads.length);
  assertBytes(plan.downloads.reduce((sum, d) => sum + d.size, 0));
  const files = await downloadDebs(plan.downloads, join(paths.debCache, 'tools-amd64'));
  const frontend = nativeAptFrontend(architecture);
  const refused = await unpackAndCheck(instance, files, frontend);
  if (refused) return { refused };
  await mkdir(dirname(join(tree, NATIVE_APT_ROOT)), { recursive: true });
  await instance.copyOut(NATIVE_APT_ROOT, join(tree, NATIVE_APT_ROOT));
  const target = join(tree, APT_FRONTEND_DIR, 'apt-get');
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, frontend, { mode: 0o755 });
  return { version: plan.version, architecture, packages: plan.packages };
}

/**
 * Inside `instance`: unpacks `files` at NATIVE_APT_ROOT, places the frontend, and resolves
 * NATIVE_APT_CHECK_PACKAGES with both apts. Returns why not, when they do not answer alike.
 */
async function unpackAndCheck(
  instance: ChrootSandbox,
  files: readonly string[],
  frontend: string,
): Promise<string | undefined> {
  const staged = await mkdtemp(join(tmpdir(), 'rvport-native-apt-'));
  try {
    for (const file of files) await copyFile(file, join(staged, basename(file)));
    await instance.copyIn(staged, STAGED_DEBS);
  } finally {
    await rm(staged, { recursive: true, force: true });
  }
  const unpack = await instance.run(
    [
      '/bin/sh',
      '-c',
      'set -e; mkdir -p "$1"; for f in "$2"/*.deb; do dpkg-deb -x "$f" "$1"; done; rm -rf -- "$1/usr/share" "$2"',
      'sh',
      NATIVE_APT_ROOT,
      STAGED_DEBS,
    ],
    { timeoutMs: CHECK_TIMEOUT_MS },
  );
  if (unpack.exitCode !== 0) return `dpkg-deb -x failed: ${firstLine(unpack.stderr)}`;
  await instance.writeFile(`${APT_FRONTEND_DIR}/apt-get`, frontend, 0o755);
  const resolve = (aptGet: string) =>
    instance.run([aptGet, 'install', '-s', '-q', '--no-install-recommends', ...NATIVE_APT_CHECK_PACKAGES], {
      timeoutMs: CHECK_TIMEOUT_MS,
    });
  const native = await resolve(`${APT_FRONTEND_DIR}/apt-get`);
  const riscv = await resolve('/usr/bin/apt-get');
  if (native.exitCode !== 0 || riscv.exitCode !== 0 || native.stdout !== riscv.stdout)
    return `the x86_64 apt resolved ${NATIVE_APT_CHECK_PACKAGES.join(' ')} otherwise (exit ${native.exitCode}: ${firstLine(native.stderr || native.stdout)}; riscv64 exit ${riscv.exitCode})`;
  return undefined;
}

/**
 * The tools tree's amd64 Packages index (as mmdebstrap left it), or why there is none: the lists
 * folder reached without a link, each file opened with O_NOFOLLOW, regular and of a bounded size.
 */
async function readAmd64Index(toolsTree: string): Promise<string | { refused: string }> {
  const lists = await treeListsDir(toolsTree);
  const names = lists
    ? (await readdir(lists).catch(() => [] as string[])).filter((n) => /_binary-amd64_Packages$/.test(n))
    : [];
  const texts: string[] = [];
  for (const name of names) {
    const text = await readRegularFile(join(lists as string, name), MAX_INDEX_FILE_BYTES);
    if (text !== undefined) texts.push(text);
  }
  return texts.length > 0 ? texts.join('\n\n') : { refused: 'the tools tree keeps no amd64 package index' };
}

/** A regular file's text (not through a link, at most `maxBytes`), or undefined when it is not one. */
async function readRegularFile(path: string, maxBytes: number): Promise<string | undefined> {
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (!file) return undefined;
  try {
    const info = await file.stat();
    if (!info.isFile()) return undefined;
    if (info.size > maxBytes) throw new Error(`${path}: larger than ${maxBytes} bytes`);
    return await file.readFile('utf8');
  } finally {
    await file.close();
  }
}

const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';
