// Sources: SOURCE strings validated and turned into local git working trees.

export { DEFAULT_DEBIAN_SUITE, debianMirror } from '../debian/debianMirror.ts';
export type { AcquiredSource } from './AcquiredSource.ts';
export { type AcquireOptions, acquireSource, readAcquired } from './acquireSource.ts';
export { nameFromTarball, nameFromUrlPath, parseSource, type SourceSpec } from './parseSource.ts';
export { isSourceError, SourceError } from './SourceError.ts';
