/** A source made into a local git working tree, with what is needed to reproduce it. */
export interface AcquiredSource {
  name: string;
  /** The git working tree. */
  dir: string;
  /** The commit checked out (for plain trees and tarballs, the import commit rvport made). */
  commit: string;
  kind: 'git' | 'directory' | 'tarball' | 'tarball-url' | 'debian';
  /** The SOURCE string as given. */
  origin: string;
  /** `fetched`: every submodule is there; `unreachable`: some could not be fetched (see warnings). */
  submodules: 'none' | 'fetched' | 'unreachable';
  /** SHA-256 of the tarball, for tarball and Debian sources. */
  tarballSha256: string | null;
  debian: { package: string; version: string; suite: string; tarball: string } | null;
  warnings: string[];
  acquiredAt: string;
}

/** Stored inside `.git` so the working tree stays exactly the source. */
export const METADATA_FILE = 'rvport-source.json';
