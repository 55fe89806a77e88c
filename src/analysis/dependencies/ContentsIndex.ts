import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import { DEBIAN_KEYRING } from '../../debian/debianMirror.ts';
import { RvportError, type RvportErrorOptions } from '../../errors/index.ts';
import { runProcess } from '../../process/runProcess.ts';

export const CONTENTS_ARCH = 'riscv64';
const MULTIARCH = 'riscv64-linux-gnu';

const DOWNLOAD_TIMEOUT_MS = 15 * 60 * 1000;

/** The parts of the Contents index dependency resolution needs; the rest is dropped on download. */
const KEEP = new RegExp(
  [
    '^usr/include/',
    `^usr/lib/(${MULTIARCH}/)?pkgconfig/[^/]+\\.pc$`,
    '^usr/share/pkgconfig/[^/]+\\.pc$',
    `^usr/lib/(${MULTIARCH}/)?cmake/[^/]+/[^/]*([Cc]onfig|-config)\\.cmake$`,
    '^usr/share/cmake/[^/]+/[^/]*([Cc]onfig|-config)\\.cmake$',
    `^usr/lib/${MULTIARCH}/lib[^/]+\\.(so|a)$`,
    // a library in a folder named as it is (usr/lib/quickjs/libquickjs.a)
    `^usr/lib/(${MULTIARCH}/)?(?<own>[^/]+)/lib\\k<own>\\.(so|a)$`,
    '^usr/(s?bin)/[^/]+$',
    // R packages, by their DESCRIPTION (r-cran-*, r-bioc-*, and R's own in r-base-core)
    '^usr/lib/R/(site-)?library/[^/]+/DESCRIPTION$',
    // Debian's crates: a cargo directory registry, one folder per crate version
    '^usr/share/cargo/registry/[^/]+/Cargo\\.toml$',
  ].join('|'),
);

/** Where Debian's Go libraries are, in a GOPATH; the index keeps their folders, not their files. */
export const GOCODE_PREFIX = 'usr/share/gocode/src/';

/**
 * Bumped whenever the filter keeps more: the cached file's name carries it, so an index filtered
 * by an older rvport (without crates or Go folders) is downloaded again once instead of
 * answering wrong.
 */
const FILTER_VERSION = 4;

/**
 * The line the cached index keeps for a Contents entry, or null. Go libraries are hundreds of
 * thousands of files; a module is found by its folder, so each folder is kept once (`…/src/<dir>/`)
 * with the package of its first file.
 */
export function keptLine(path: string, packages: readonly string[], seenFolders: Set<string>): string | null {
  if (path.startsWith(GOCODE_PREFIX)) {
    const folder = path.slice(0, path.lastIndexOf('/') + 1);
    if (folder.length <= GOCODE_PREFIX.length || seenFolders.has(folder)) return null;
    seenFolders.add(folder);
    return `${folder}\t${packages.join(',')}\n`;
  }
  return KEEP.test(path) ? `${path}\t${packages.join(',')}\n` : null;
}

/** Debian's Contents index could not be had (one code: `contents-unavailable`). */
export class ContentsError extends RvportError {
  override name = 'ContentsError';
  constructor(message: string, options?: RvportErrorOptions) {
    super('contents-unavailable', message, options);
  }
}

/** Lookups of file paths in a filtered Contents index: path → Debian binary packages. */
export interface ContentsLookup {
  lookup(paths: Iterable<string>): Map<string, string[]>;
  /** Every path under a folder (`usr/share/cargo/registry/`), in one pass. */
  under?(prefix: string): Map<string, string[]>;
  /** Every path that ends with `/suffix`, in one pass. */
  endingWith?(suffix: string): Map<string, string[]>;
}

/** The cached, filtered index: one `path\tpkg,pkg` line per file. */
export class ContentsIndex implements ContentsLookup {
  private constructor(private readonly text: string) {}

  static async load(file: string): Promise<ContentsIndex> {
    return new ContentsIndex(await readFile(file, 'utf8'));
  }

  static fromText(text: string): ContentsIndex {
    return new ContentsIndex(text);
  }

  /** One pass over the index for all the wanted paths (faster than building a map of it all). */
  lookup(paths: Iterable<string>): Map<string, string[]> {
    const wanted = new Set(paths);
    const found = new Map<string, string[]>();
    if (wanted.size === 0) return found;
    let start = 0;
    const text = this.text;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const tab = text.indexOf('\t', start);
      if (tab !== -1 && tab < end) {
        const path = text.slice(start, tab);
        if (wanted.has(path)) found.set(path, text.slice(tab + 1, end).split(','));
      }
      start = end + 1;
    }
    return found;
  }

  under(prefix: string): Map<string, string[]> {
    const found = new Map<string, string[]>();
    const text = this.text;
    let at = text.startsWith(prefix) ? 0 : text.indexOf(`\n${prefix}`);
    while (at !== -1) {
      const start = text[at] === '\n' ? at + 1 : at;
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const tab = text.indexOf('\t', start);
      if (tab !== -1 && tab < end) found.set(text.slice(start, tab), text.slice(tab + 1, end).split(','));
      at = text.indexOf(`\n${prefix}`, end);
    }
    return found;
  }

  endingWith(suffix: string): Map<string, string[]> {
    const found = new Map<string, string[]>();
    const text = this.text;
    const needle = `/${suffix}\t`;
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
      const start = text.lastIndexOf('\n', at) + 1;
      let end = text.indexOf('\n', at);
      if (end === -1) end = text.length;
      const tab = at + needle.length - 1;
      found.set(text.slice(start, tab), text.slice(tab + 1, end).split(','));
    }
    return found;
  }
}

/** Where the filtered index of a suite is cached. */
export function contentsCachePath(home: string, suite: string): string {
  return join(home, 'debian-contents', `${suite}-${CONTENTS_ARCH}-${FILTER_VERSION}.tsv`);
}

/** `usr/include/zlib.h   libdevel/zlib1g-dev` → [path, packages] (sections dropped). */
export function parseContentsLine(line: string): [string, string[]] | null {
  const match = /^(.*?)\s+(\S+)$/.exec(line);
  if (!match?.[1] || !match[2]) return null;
  return [match[1], match[2].split(',').map((p) => p.slice(p.lastIndexOf('/') + 1))];
}

async function download(url: string, signal?: AbortSignal): Promise<Response> {
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (error) {
    throw new ContentsError(
      `cannot download ${url}: ${error instanceof Error ? (error.cause ?? error.message) : error}`,
    );
  }
  if (!response.ok || !response.body)
    throw new ContentsError(`cannot download ${url}: HTTP ${response.status}`);
  return response;
}

/** Checks the InRelease signature with Debian's keyring and returns the signed text. */
async function verifiedRelease(inRelease: string, workDir: string, signal?: AbortSignal): Promise<string> {
  const file = join(workDir, 'InRelease');
  await writeFile(file, inRelease);
  const result = await runProcess({
    command: ['gpgv', '--keyring', DEBIAN_KEYRING, '--output', '-', file],
    timeoutMs: 60_000,
    signal,
    captureBytes: 16 * 1024 * 1024,
  });
  if (result.exitCode !== 0) {
    throw new ContentsError(
      `the InRelease signature does not verify: ${result.stderr.trim().split('\n').slice(-2).join(' / ')}`,
    );
  }
  return result.stdout;
}

export interface EnsureContentsOptions {
  home: string;
  suite: string;
  mirror: string;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/** Architecture-specific files are in Contents-riscv64; arch:all packages (headers-only libraries,
 * systemd.pc, eigen3) only in Contents-all. */
export const CONTENTS_PARTS = [CONTENTS_ARCH, 'all'] as const;

/**
 * Downloads the riscv64 and arch:all Contents indexes of a suite once (Release signature and
 * checksums checked), keeps only the paths resolution uses, and caches them in one file,
 * atomically. Returns the cached file.
 */
export async function ensureContentsIndex(options: EnsureContentsOptions): Promise<string> {
  const target = contentsCachePath(options.home, options.suite);
  if (existsSync(target)) return target;
  const dir = join(options.home, 'debian-contents');
  const staging = join(dir, `.download-${randomBytes(4).toString('hex')}`);
  await mkdir(staging, { recursive: true });
  try {
    const base = `${options.mirror.replace(/\/$/, '')}/dists/${options.suite}`;
    options.log?.(`downloading the ${options.suite} ${CONTENTS_ARCH} Contents index (once per suite)`);
    const release = await verifiedRelease(
      await (await download(`${base}/InRelease`, options.signal)).text(),
      staging,
      options.signal,
    );
    const tsv = join(staging, 'contents.tsv');
    const out = createWriteStream(tsv);
    const parts: Record<string, unknown>[] = [];
    const seenFolders = new Set<string>();
    for (const part of CONTENTS_PARTS) {
      const gz = join(staging, `Contents-${part}.gz`);
      parts.push(await downloadPart(base, `main/Contents-${part}.gz`, release, gz, options));
      const lines = createInterface({
        input: createReadStream(gz).pipe(createGunzip()),
        crlfDelay: Number.POSITIVE_INFINITY,
      });
      for await (const line of lines) {
        if (!line.startsWith('usr/')) continue;
        const parsed = parseContentsLine(line);
        const kept = parsed ? keptLine(parsed[0], parsed[1], seenFolders) : null;
        if (kept !== null && !out.write(kept)) await new Promise<void>((r) => out.once('drain', () => r()));
      }
      await rm(gz, { force: true });
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    // The index only names packages (apt verifies whatever gets installed), so an index that does
    // not match the signed Release file is still used, the gap recorded and said in one line.
    const unverified = parts.filter((p) => p.verified !== true).map((p) => String(p.name));
    if (unverified.length > 0) options.log?.(unverifiedWarning(unverified, release));
    const meta = { suite: options.suite, parts, downloadedAt: new Date().toISOString() };
    await writeFile(join(staging, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
    await rename(join(staging, 'meta.json'), `${target}.json`);
    await rename(tsv, target);
    return target;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function downloadPart(
  base: string,
  name: string,
  release: string,
  file: string,
  options: EnsureContentsOptions,
): Promise<Record<string, unknown>> {
  const listed = new RegExp(
    `^SHA256:[\\s\\S]*?^\\s*([0-9a-f]{64})\\s+(\\d+)\\s+${name.replace(/[.]/g, '\\.')}$`,
    'm',
  ).exec(release);
  if (!listed?.[1]) throw new ContentsError(`${name} is not listed in the ${options.suite} Release file`);
  const expected = listed[1];
  // by-hash is consistent with the Release file even while a mirror updates; not every mirror has it
  let verified = false;
  for (const url of [`${base}/main/by-hash/SHA256/${expected}`, `${base}/${name}`]) {
    let response: Response;
    try {
      response = await download(url, options.signal);
    } catch (error) {
      if (url.includes('/by-hash/')) continue;
      throw error;
    }
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(file));
    const hash = createHash('sha256');
    await pipeline(createReadStream(file), hash);
    verified = hash.digest('hex') === expected;
    if (verified) break;
  }
  return { name, expectedSha256: expected, verified };
}

/**
 * What an unverified index means, in one line: the mirror serves an index from another snapshot
 * than its signed Release file (seen: a Release file ten days older than the Contents files it
 * lists, and no by-hash copies), which costs nothing but the index's checksum.
 */
export function unverifiedWarning(names: readonly string[], release: string): string {
  const date = /^Date: (.+)$/m.exec(release)?.[1]?.trim();
  return `warning: the mirror's ${names.join(' and ')} ${names.length > 1 ? 'are' : 'is'} not the one its signed Release file${date ? ` (${date})` : ''} lists: the mirror serves files of another snapshot; rvport uses the index only to name packages (apt checks each package it installs), so nothing to do, or pass --mirror for a consistent one`;
}
