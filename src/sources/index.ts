// Sources: SOURCE strings validated and turned into local trees with their commit recorded.

export { DEFAULT_DEBIAN_SUITE, debianMirror } from '../debian/debianMirror.ts';
export type { AcquiredSource, DebianPackaging } from './AcquiredSource.ts';
export { crateSourceNote } from './acquireDebianCrate.ts';
export { remoteHeadCommit } from './acquireGit.ts';
export { type AcquireOptions, acquireSource, metadataDir, readAcquired } from './acquireSource.ts';
export { commitTree } from './commitTree.ts';
export type { DependencySources } from './deps/acquireDependencies.ts';
export { acquireDependencies } from './deps/acquireDependencies.ts';
export type { FetchedDependencies } from './deps/FetchedDependency.ts';
export { CRATES_FOLDER } from './deps/fetchCrates.ts';
export { checkServiceUrl } from './deps/fetchLimited.ts';
export { stageDependencies } from './deps/stageDependencies.ts';
export type { Submodule } from './emptySubmodules.ts';
export { emptySubmodules } from './emptySubmodules.ts';
export { git, gitEnvironment, headTree, localHeadCommit, SAFE_GIT_CONFIG } from './git.ts';
export { MAX_CONTROL_BYTES, MAX_PATCH_BYTES, readPackagingFile } from './keepDebianPackaging.ts';
export { PrivateApt } from './PrivateApt.ts';
export { nameFromTarball, nameFromUrlPath, parseSource, type SourceSpec } from './parseSource.ts';
export { isSourceError, SourceError, type SourceErrorCode } from './SourceError.ts';
export type { AskedSource, FetchRules, SourceOrigin } from './sourceOrigin.ts';
export { DEFAULT_FETCH_RULES, fetchRulesFor } from './sourceOrigin.ts';
export {
  extractTarball,
  MAX_TARBALL_BYTES,
  MAX_TARBALL_ENTRIES,
  type TarballLimits,
} from './tar/extractTarball.ts';
