/** A source made into a local git working tree, with what is needed to reproduce it. */
export interface AcquiredSource {
  name: string;
  /** The source tree: exactly the source's files (what builds get a copy of). */
  dir: string;
  /**
   * The git metadata rvport made for the tree and reads with its own settings: `dir/.git` for a
   * clone (git wrote it, the remote cannot), a folder outside `dir` for a tarball or plain tree
   * (a `.git` those carry is data, never read as metadata).
   */
  gitDir: string;
  /** The commit checked out (for plain trees and tarballs, the import commit rvport made). */
  commit: string;
  kind: 'git' | 'directory' | 'tarball' | 'tarball-url' | 'debian';
  /** The SOURCE string as given. */
  origin: string;
  /**
   * `fetched`: every submodule is there; `unreachable`: some could not be fetched, or their URL
   * was refused (see warnings).
   */
  submodules: 'none' | 'fetched' | 'unreachable';
  /** SHA-256 of the tarball, for tarball and Debian sources. */
  tarballSha256: string | null;
  debian: {
    package: string;
    version: string;
    suite: string;
    /** The file the tree was unpacked from: the upstream tarball, or the binary package's `.deb`. */
    tarball: string;
    /** Debian's packaging of the source, when its debian.tar was there and usable (older records lack it). */
    packaging?: DebianPackaging | null;
    /** Set when the tree is the crate a `librust-*-dev` package ships, the source package's own files missing. */
    binary?: DebianBinarySource;
  } | null;
  warnings: string[];
  acquiredAt: string;
}

/**
 * rvport's own records about acquired trees live in `workDir/.rvport/NAME/` (never inside a
 * tree, where a shipped file could forge them): `source.json`, for imports `git/`, and for a
 * Debian source its packaging, `debian/` (read as data, never run).
 * Names never start with a dot, so this folder cannot collide with a tree.
 */
export const METADATA_FOLDER = '.rvport';
export const METADATA_FILE = 'source.json';

/**
 * A Rust crate's source taken from Debian's binary package of it (`librust-CRATE-dev` ships the
 * crate as published, Debian's patches applied), when the source package cannot be downloaded.
 */
export interface DebianBinarySource {
  package: string;
  version: string;
  architecture: string;
  /** SHA-256 of the `.deb`, as the archive's Packages index gives it. */
  sha256: string;
  /** The folder of the package that is the tree (`usr/share/cargo/registry/CRATE-VERSION`). */
  folder: string;
}

/**
 * What a port takes from Debian's packaging of a `debian:` source (read from its debian.tar,
 * kept in rvport's metadata folder, never in the tree and never run).
 */
export interface DebianPackaging {
  /** The unpacked `debian/` folder (control, rules, patches/), in `workDir/.rvport/NAME/`. */
  dir: string;
  /**
   * Build-Depends and Build-Depends-Arch that apply to a riscv64 build, without packaging
   * tools: one entry per relation, its alternatives in Debian's order.
   */
  buildDepends: string[][];
  /** debian/patches/series in order, the patches whose files are there. */
  patches: { name: string; strip: number }[];
  /** What of the packaging could not be used (refused series entries, missing patch files). */
  problems: string[];
  /** debian/control's `XS-Go-Import-Path`: the import path a Go package is built under. */
  goImportPath?: string;
  /** The build steps debian/rules replaces or extends (`override_dh_auto_configure`). */
  rulesSteps?: string[];
  /** The Go packages debian/rules keeps out of the build (`DH_GOLANG_EXCLUDES`). */
  goExcludes?: string[];
}

/** What one kind of acquisition returns; acquireSource adds the rest. */
export type Acquired = Omit<AcquiredSource, 'name' | 'dir' | 'kind' | 'origin' | 'acquiredAt'>;
