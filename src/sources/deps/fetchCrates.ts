import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LockedCrate } from '../../analysis/index.ts';
import { SourceError } from '../SourceError.ts';
import { extractTarball } from '../tar/extractTarball.ts';
import { crateDownloadUrl } from './crateDownloadUrl.ts';
import type { FetchedDependencies, FetchedDependency } from './FetchedDependency.ts';
import { checkServiceUrl, fetchLimited } from './fetchLimited.ts';

/** A .crate download and its unpacked tree: crates.io's own limit is 10 MiB packed. */
export const MAX_CRATE_BYTES = 64 * 1024 * 1024;
export const MAX_CRATE_UNPACKED_BYTES = 512 * 1024 * 1024;
export const MAX_CRATE_ENTRIES = 50_000;
const CHECKSUM = /^[0-9a-f]{64}$/;
/** The folder of the store's directory registry (a cargo `directory` source). */
export const CRATES_FOLDER = 'crates';

export interface FetchCratesOptions {
  /** The registry's sparse index, where its config.json is (e.g. `http://127.0.0.1:PORT/index/`). */
  registry: URL;
  /** The store root, `RVPORT_HOME/deps/cargo`. */
  store: string;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/** The `dl` of the index's config.json, checked to be an http(s) URL. */
async function downloadBase(options: FetchCratesOptions): Promise<string> {
  const url = new URL(
    'config.json',
    options.registry.href.endsWith('/') ? options.registry : `${options.registry.href}/`,
  );
  const data = await fetchLimited(url.href, 64 * 1024, options.signal);
  if (!data) throw new SourceError('acquire', `the crate registry has no config.json at ${url.href}`);
  let dl: unknown;
  try {
    dl = (JSON.parse(data.toString('utf8')) as { dl?: unknown }).dl;
  } catch {
    throw new SourceError('acquire', `the crate registry's config.json is not JSON (${url.href})`);
  }
  if (typeof dl !== 'string')
    throw new SourceError('acquire', `the crate registry's config.json names no dl`);
  checkServiceUrl(dl.replace(/\{[a-z0-9-]+\}/g, 'x'), "the registry's dl");
  return dl;
}

/** Every regular file under `dir` (relative paths); a link or anything else refuses the crate. */
async function regularFiles(dir: string, what: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await readdir(join(dir, prefix))).sort()) {
    const rel = prefix ? `${prefix}/${name}` : name;
    const info = await lstat(join(dir, rel));
    if (info.isDirectory()) out.push(...(await regularFiles(dir, what, rel)));
    else if (info.isFile()) out.push(rel);
    else
      throw new SourceError(
        'unsafe-entry',
        `${what}: refusing entry ${JSON.stringify(rel)}: not a regular file (a link?)`,
      );
  }
  return out;
}

/**
 * The registry crates a Cargo.lock pins, from the registry into the store's directory
 * registry (`crates/NAME-VERSION/` with the `.cargo-checksum.json` cargo checks there), each
 * `.crate` checked against the lock's sha256 before it is unpacked, with rvport's own tar
 * reader: no path out of the folder, no link, size limits. A crate already in the store with
 * the same checksum is reused. A lock entry without a checksum, or a mismatch, refuses the port.
 */
export async function fetchCrates(
  locked: readonly LockedCrate[],
  options: FetchCratesOptions,
): Promise<FetchedDependencies> {
  const registry = options.registry.href;
  let dl: string | null = null;
  const items: FetchedDependency[] = [];
  const paths: string[] = [];
  const root = join(options.store, CRATES_FOLDER);
  await mkdir(root, { recursive: true });
  for (const crate of locked) {
    const label = `${crate.name} ${crate.version}`;
    if (!crate.checksum || !CHECKSUM.test(crate.checksum))
      throw new SourceError('invalid', `Cargo.lock gives ${label} no sha256 checksum: it cannot be checked`);
    dl ??= await downloadBase(options);
    const url = crateDownloadUrl(dl, crate.name, crate.version, crate.checksum);
    const folder = `${CRATES_FOLDER}/${crate.name}-${crate.version}`;
    const final = join(options.store, folder);
    const known = await readFile(join(final, '.cargo-checksum.json'), 'utf8')
      .then((t) => (JSON.parse(t) as { package?: string }).package)
      .catch(() => undefined);
    let suppliedBy: FetchedDependency['suppliedBy'] = 'store';
    if (known !== crate.checksum) {
      const data = await fetchLimited(url, MAX_CRATE_BYTES, options.signal);
      if (!data) throw new SourceError('acquire', `the crate registry has no ${label}`);
      const hash = createHash('sha256').update(data).digest('hex');
      if (hash !== crate.checksum)
        throw new SourceError(
          'hash-mismatch',
          `${label} does not match Cargo.lock: the lock says sha256 ${crate.checksum}, the download is ${hash}; refusing it`,
        );
      await unpackCrate(data, crate, root, final);
      suppliedBy = 'registry';
    }
    paths.push(folder);
    items.push({
      kind: 'crate',
      name: crate.name,
      version: crate.version,
      hash: `sha256:${crate.checksum}`,
      suppliedBy,
      from: registry,
    });
    options.log?.(
      `${label}: ${suppliedBy === 'registry' ? 'fetched from the crate registry' : 'from the store'}, checked against Cargo.lock`,
    );
  }
  return { kind: 'cargo', from: registry, paths, items };
}

/** Unpacks a checked .crate beside its final folder and renames it into place. */
async function unpackCrate(data: Buffer, crate: LockedCrate, root: string, final: string): Promise<void> {
  const what = `${crate.name}-${crate.version}.crate`;
  const scratch = await mkdtemp(join(root, `.unpack-${randomBytes(3).toString('hex')}-`));
  try {
    const file = join(scratch, what);
    await writeFile(file, data);
    const tree = join(scratch, 'tree');
    await extractTarball(file, tree, scratch, {
      limits: { maxBytes: MAX_CRATE_UNPACKED_BYTES, maxEntries: MAX_CRATE_ENTRIES },
    });
    const files = await regularFiles(tree, what);
    if (!files.includes('Cargo.toml')) throw new SourceError('unsafe-entry', `${what} has no Cargo.toml`);
    const sums: Record<string, string> = {};
    for (const rel of files)
      sums[rel] = createHash('sha256')
        .update(await readFile(join(tree, rel)))
        .digest('hex');
    await writeFile(
      join(tree, '.cargo-checksum.json'),
      JSON.stringify({ files: sums, package: crate.checksum }),
    );
    await rm(final, { recursive: true, force: true });
    await rename(tree, final);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
