// Verification: reads ELF headers and `ar` archives itself and decides whether outputs are riscv64.
export {
  decideVerdict,
  objectsOf,
  TARGET_MACHINE,
  type Verdict,
  type VerdictOptions,
} from './decideVerdict.ts';
export {
  type ElfFacts,
  inspectAndDigestIn,
  inspectBytes,
  inspectFile,
  inspectFileIn,
  MAX_INSPECT_BYTES,
} from './inspectFile.ts';
export { type ArArchive, type ArMember, hasArMagic, readArArchive } from './readArArchive.ts';
export { type ElfInfo, type ElfResult, type Machine, readElf } from './readElf.ts';
export { isaExtensions, readRiscvAttributes } from './readRiscvAttributes.ts';
export { type VerifyReport, verifyPaths } from './verifyPaths.ts';
