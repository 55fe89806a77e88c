import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readPackageIndex, treeListsDir } from '../../debian/readPackageIndex.ts';
import { hashFileConfined, writeJsonAtomic } from '../../fs/index.ts';
import { runProcess } from '../../process/runProcess.ts';
import { imageTree } from '../imageStore.ts';
import { downloadDebs } from '../packages/downloadDebs.ts';
import { archivePrefixes, downloadMirror } from '../packages/parseAptUris.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';
import { EMULATOR_CPU, kernelNamespacesBinfmt } from './binfmtRegistration.ts';
import { EMULATOR_MEMBER, EMULATOR_PACKAGE, planEmulatorDownload } from './planEmulatorDownload.ts';

/** The emulator of a set of images: Debian's qemu-riscv64 of the tools tree's release. */
export interface Emulator {
  /** Its folder under the images: `emulator-…`, derived from the tools tree's key. */
  key: string;
  /** qemu-user's Debian version. */
  version: string;
  /** SHA-256 of the program, checked each time the emulator is handed to an instance. */
  sha256: string;
}

/** The program's name in its folder. */
export const EMULATOR_PROGRAM = 'qemu-riscv64';
const RECORD = 'emulator.json';
const EXTRACT_TIMEOUT_MS = 5 * 60_000;
/** The program is some 16 MB; anything far larger is not it. */
const MAX_PROGRAM_BYTES = 256 * 1024 * 1024;

/** The folder key of the emulator that goes with the tools tree `toolsKey`. */
export function emulatorKey(toolsKey: string): string {
  return `emulator-${createHash('sha256').update(`1\n${toolsKey}`).digest('hex').slice(0, 16)}`;
}

/** The emulator program's host path. */
export function emulatorProgram(paths: SandboxPaths, key: string): string {
  return join(paths.image(key), EMULATOR_PROGRAM);
}

/**
 * The emulator instances of these images run their riscv64 programs under, fetched once: the
 * amd64 qemu-user the tools tree's package index names (its hash from that signed index), of which
 * only the riscv64 program is kept. Undefined, with the reason, when the kernel cannot give an
 * instance a binfmt_misc of its own (before Linux 6.7), or no emulator can be had: instances then
 * run under the host's registration, as before.
 */
export async function ensureEmulator(
  paths: SandboxPaths,
  stack: { toolsKey?: string; mirror?: string },
  options: { signal?: AbortSignal; kernelRelease?: string } = {},
): Promise<Emulator | { refused: string }> {
  if (!kernelNamespacesBinfmt(options.kernelRelease))
    return {
      refused: 'the kernel gives no user namespace a binfmt_misc of its own (Linux 6.7 or later does)',
    };
  if (!stack.toolsKey) return { refused: 'no x86_64 tools tree to take the emulator from' };
  const key = emulatorKey(stack.toolsKey);
  const cached = await readEmulator(paths, key);
  if (cached) return cached;
  const lists = await treeListsDir(imageTree(paths, stack.toolsKey));
  if (!lists) return { refused: 'the tools tree keeps no package index' };
  const mirror = downloadMirror(stack.mirror);
  if (!mirror) return { refused: 'no Debian mirror to fetch the emulator from' };
  const plan = planEmulatorDownload(await readPackageIndex([lists]), mirror, archivePrefixes(stack.mirror));
  if ('refused' in plan) return plan;
  const [deb] = await downloadDebs([plan.download], join(paths.debCache, 'tools-amd64'), {
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const dir = paths.image(key);
  const temp = join(dirname(dir), `.${key}-${process.pid}`);
  await rm(temp, { recursive: true, force: true });
  await mkdir(temp, { recursive: true });
  try {
    // a package of the signed release, checked against its hash: only the one member is taken
    const extract = await runProcess({
      command: [
        '/bin/sh',
        '-c',
        'dpkg-deb --fsys-tarfile "$1" | tar -xf - -C "$2" --no-same-owner --no-same-permissions "./$3"',
        'sh',
        deb as string,
        temp,
        EMULATOR_MEMBER,
      ],
      timeoutMs: EXTRACT_TIMEOUT_MS,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (extract.exitCode !== 0)
      return { refused: `${EMULATOR_PACKAGE}: ${EMULATOR_MEMBER} not extracted: ${extract.stderr.trim()}` };
    const program = join(temp, EMULATOR_PROGRAM);
    await rename(join(temp, EMULATOR_MEMBER), program);
    await rm(join(temp, 'usr'), { recursive: true, force: true });
    await chmod(program, 0o755);
    await chmod(temp, 0o755);
    const { sha256 } = hashFileConfined(temp, EMULATOR_PROGRAM, { maxBytes: MAX_PROGRAM_BYTES });
    const emulator: Emulator = { key, version: plan.version, sha256 };
    await writeJsonAtomic(join(temp, RECORD), emulator);
    await rm(dir, { recursive: true, force: true });
    await rename(temp, dir);
    return emulator;
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** The emulator kept under `key`, when its record is there and the program still matches it. */
export async function readEmulator(paths: SandboxPaths, key: string): Promise<Emulator | undefined> {
  const dir = paths.image(key);
  const info = await lstat(dir).catch(() => undefined);
  if (!info?.isDirectory()) return undefined;
  let record: Emulator;
  try {
    record = JSON.parse(await readFile(join(dir, RECORD), 'utf8')) as Emulator;
  } catch {
    return undefined;
  }
  if (record.key !== key) return undefined;
  try {
    const { sha256 } = hashFileConfined(dir, EMULATOR_PROGRAM, { maxBytes: MAX_PROGRAM_BYTES });
    return sha256 === record.sha256 ? record : undefined;
  } catch {
    return undefined;
  }
}

/** One line on what runs riscv64 programs in instances over the tools tree `toolsKey`. */
export async function emulatorStatus(
  paths: SandboxPaths,
  toolsKey: string,
  kernelRelease?: string,
): Promise<string> {
  if (!kernelNamespacesBinfmt(kernelRelease))
    return "the host's registration (qemu-user-static): this kernel gives an instance no binfmt_misc of its own (Linux 6.7+ does)";
  const emulator = await readEmulator(paths, emulatorKey(toolsKey));
  return emulator
    ? `the images' qemu-user ${emulator.version}, registered in each instance's own binfmt_misc, as ${EMULATOR_CPU}`
    : "the images' qemu-user, fetched at the first instance (not yet)";
}
