// Host-side file access: atomic writes of rvport's own files, and reads of untrusted trees that no
// symbolic link can lead out of.
export {
  ConfinedPathError,
  type ConfinedPathErrorCode,
  isConfinedPathError,
} from './ConfinedPathError.ts';
export { type CopiedFile, copyRegularFile, MAX_COPY_BYTES } from './copyRegularFile.ts';
export { type FileDigest, hashFileConfined } from './hashFileConfined.ts';
export {
  type ConfinedHandle,
  describeKind,
  existsConfined,
  MAX_LINKS,
  openConfined,
  statConfined,
} from './openConfined.ts';
export {
  DEFAULT_MAX_READ_BYTES,
  readFileConfined,
  readHeadConfined,
  readTextConfined,
} from './readFileConfined.ts';
export {
  type ConfinedEntry,
  type ConfinedEntryType,
  DEFAULT_WALK_DEPTH,
  DEFAULT_WALK_ENTRIES,
  type WalkOptions,
  walkConfined,
} from './walkConfined.ts';
export { writeFileAtomic, writeJsonAtomic } from './writeFileAtomic.ts';
export { COPY_CHUNK, isZeroChunk } from './zeroChunk.ts';
