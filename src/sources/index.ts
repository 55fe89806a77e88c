// Sources: SOURCE strings validated and turned into local trees with their commit recorded.

export { DEFAULT_DEBIAN_SUITE, debianMirror } from '../debian/debianMirror.ts';
export type { AcquiredSource } from './AcquiredSource.ts';
export { remoteHeadCommit } from './acquireGit.ts';
export { type AcquireOptions, acquireSource, metadataDir, readAcquired } from './acquireSource.ts';
export { headTree, localHeadCommit } from './git.ts';
export { nameFromTarball, nameFromUrlPath, parseSource, type SourceSpec } from './parseSource.ts';
export { isSourceError, SourceError, type SourceErrorCode } from './SourceError.ts';
export { MAX_TARBALL_BYTES, MAX_TARBALL_ENTRIES, type TarballLimits } from './tar/extractTarball.ts';
