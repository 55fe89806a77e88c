import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { type DebianSourceEntry, DebianSourceIndex } from '../debian/DebianSourceIndex.ts';
import { type BinaryPackage, parseBinaryPackages } from '../debian/parseBinaryPackages.ts';
import type { Acquired, DebianBinarySource } from './AcquiredSource.ts';
import { gitEntryWarnings, sha256File } from './acquireTarball.ts';
import { commitTree } from './commitTree.ts';
import { extractDebFolder } from './deb/extractDebFolder.ts';
import { aptDownloadFolder, lastLines, PrivateApt } from './PrivateApt.ts';
import type { SourceSpec } from './parseSource.ts';
import { isSourceError, SourceError } from './SourceError.ts';
import type { ExtractOptions } from './tar/extractTarball.ts';

/** The binary lists a crate's package comes from: the sandbox's architecture (the files are the same on all). */
export const CRATE_PACKAGE_ARCHITECTURE = 'riscv64';
/** Where Debian's `librust-*-dev` packages put the crate (dh-cargo's directory registry). */
const CARGO_REGISTRY = 'usr/share/cargo/registry';
/** A crate package: `librust-NAME-dev`, without the `+feature` of the packages of its features. */
const CRATE_PACKAGE = /^librust-([a-z0-9][a-z0-9.-]*)-dev$/;

/**
 * The plain `librust-CRATE-dev` among the binaries a `rust-CRATE` source package builds (not one
 * of its `librust-CRATE+FEATURE-dev` feature packages), or null when it builds none.
 */
export function crateBinary(entry: Pick<DebianSourceEntry, 'name' | 'binaries'>): string | null {
  const plain = (entry.binaries ?? []).filter((b) => CRATE_PACKAGE.test(b));
  const expected = `lib${entry.name}-dev`;
  if (plain.includes(expected)) return expected;
  return plain.length === 1 ? (plain[0] ?? null) : null;
}

/** The upstream version in a Debian version: no epoch, no revision, `~` back to cargo's `-`. */
export function upstreamVersion(debianVersion: string): string {
  return debianVersion
    .replace(/^\d+:/, '')
    .replace(/-[^-]*$/, '')
    .replaceAll('~', '-');
}

/** Crate names as Debian's package names spell them: lower case, `-` for `_`. */
const debianSpelling = (name: string) => name.toLowerCase().replaceAll('_', '-');

/**
 * The crate's folder among those under the registry (`itoa-1.0.14`, `lazy_static-1.5.0`,
 * `Inflector-0.11.4`): named after the crate and a version, that version first when there are
 * several. Null when none is the crate's.
 */
export function pickCrateFolder(names: readonly string[], crate: string, version: string): string | null {
  const prefix = `${debianSpelling(crate)}-`;
  const candidates = names.filter((n) => {
    const spelled = debianSpelling(n);
    return spelled.startsWith(prefix) && /^\d+(\.\d+)*([-+].*)?$/.test(spelled.slice(prefix.length));
  });
  const exact = candidates.find((n) => debianSpelling(n) === `${prefix}${debianSpelling(version)}`);
  return exact ?? (candidates.length === 1 ? (candidates[0] ?? null) : null);
}

/** What a port and a person are told about a tree that came from a crate package. */
export function crateSourceNote(binary: Pick<DebianBinarySource, 'package' | 'version'>): string {
  return `the source package's files are not on the mirror; the crate source comes from ${binary.package} ${binary.version}, Debian's packaged crate`;
}

/** The package's stanza built from this very source package and version (a binNMU's too). */
function builtFrom(stanzas: readonly BinaryPackage[], entry: DebianSourceEntry): BinaryPackage | undefined {
  return stanzas.find((s) => s.source === entry.name && s.sourceVersion === entry.version);
}

export interface CrateOptions extends ExtractOptions {
  /** The private apt of `debian:` sources; the binary lists live beside it (`APTDIR-riscv64`). */
  aptDir: string;
}

export interface CrateFallback {
  suite: string;
  mirror: string;
  /** Why the source package itself could not be had (the start of every error from here). */
  why: string;
}

/**
 * The tree of a `debian:rust-CRATE` source whose own files the mirror lacks, from the binary
 * package `librust-CRATE-dev` of the same source package and version: Debian ships the crate
 * there whole, as published with Debian's patches applied, under
 * `/usr/share/cargo/registry/CRATE-VERSION/` (which becomes the tree; its `.cargo-checksum.json`
 * only matters to a directory registry, never to the package being built). The binary comes from
 * the archive's Sources index (the source's `Binary:` list), is downloaded by a private apt with
 * binary lists (checked against the signed index), its SHA-256 compared with the index's, and
 * unpacked by rvport's own readers. Null when the source builds no crate package (the caller
 * reports its own failure); a failure from here on is a SourceError that starts with `why`.
 */
export async function acquireDebianCrate(
  spec: Extract<SourceSpec, { kind: 'debian' }>,
  tree: string,
  gitDir: string,
  scratch: string,
  options: CrateOptions,
  fallback: CrateFallback,
): Promise<Acquired | null> {
  const index = await DebianSourceIndex.load(join(options.aptDir, 'state', 'lists'), options.signal);
  const entry = index?.named(spec.package);
  if (!entry || (spec.version && entry.version !== spec.version)) return null;
  const binary = crateBinary(entry);
  if (!binary) return null;
  try {
    return await acquireFromBinary(spec, entry, binary, tree, gitDir, scratch, options, fallback);
  } catch (error) {
    if (!isSourceError(error)) throw error;
    throw new SourceError(error.code, `${fallback.why}; nor from ${binary}: ${error.message}`);
  }
}

async function acquireFromBinary(
  spec: Extract<SourceSpec, { kind: 'debian' }>,
  entry: DebianSourceEntry,
  binary: string,
  tree: string,
  gitDir: string,
  scratch: string,
  options: CrateOptions,
  { suite, mirror }: CrateFallback,
): Promise<Acquired> {
  const architecture = CRATE_PACKAGE_ARCHITECTURE;
  const apt = await PrivateApt.forBinaries(`${options.aptDir}-${architecture}`, suite, mirror, architecture);
  await apt.ensureLists(options);
  const shown = await apt.run(['show', binary], options, 'apt-cache');
  const stanza = builtFrom(parseBinaryPackages(shown.stdout), entry);
  if (!stanza)
    throw new SourceError(
      'acquire',
      `the ${architecture} package lists have no ${binary} built from ${entry.name} ${entry.version}`,
    );

  const download = await aptDownloadFolder(scratch, 'debian-crate-download');
  options.log?.(`the source package's files are not on the mirror; downloading ${binary} ${stanza.version}`);
  const result = await apt.run(['download', `${binary}=${stanza.version}`], { ...options, cwd: download });
  const file = (await readdir(download)).find((f) => f.endsWith('.deb'));
  if (result.exitCode !== 0 || !file)
    throw new SourceError('acquire', `apt-get download failed: ${lastLines(result.stderr || result.stdout)}`);
  const deb = join(download, file);
  const sha256 = await sha256File(deb);
  if (sha256 !== stanza.sha256)
    throw new SourceError(
      'hash-mismatch',
      `${file} has SHA256 ${sha256}, the package lists say ${stanza.sha256}; refusing it`,
    );

  const crate = CRATE_PACKAGE.exec(binary)?.[1] ?? binary;
  const version = upstreamVersion(stanza.version);
  const folder = await extractDebFolder(
    deb,
    tree,
    scratch,
    { parent: CARGO_REGISTRY, pick: (names) => pickCrateFolder(names, crate, version) },
    options,
  );
  const crateVersion = basename(folder).slice(crate.length + 1);
  const source: DebianBinarySource = {
    package: binary,
    version: stanza.version,
    architecture,
    sha256,
    folder,
  };
  const { commit, listing } = await commitTree(
    tree,
    gitDir,
    [
      `Import ${spec.package} ${crateVersion} crate source from ${binary}`,
      '',
      `Debian source package: ${entry.name} ${entry.version} (its own files are not on the mirror)`,
      `Suite: ${suite}`,
      `Binary package: ${binary} ${stanza.version} (${architecture})`,
      `Package file: ${file}`,
      `Folder: /${folder}`,
      `SHA256: ${sha256}`,
    ].join('\n'),
    options,
  );
  return {
    commit,
    gitDir,
    submodules: 'none',
    tarballSha256: sha256,
    debian: {
      package: spec.package,
      version: crateVersion,
      suite,
      tarball: file,
      packaging: null,
      binary: source,
    },
    warnings: [crateSourceNote(source), ...gitEntryWarnings(listing.gitEntries)],
  };
}
