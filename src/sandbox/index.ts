// The public API of the sandbox: the interface, how to get an instance, and setup/status.

export type { HostFacts } from './checkHost.ts';
export { evaluateHost, fixCommands, type HostCheck, hostPackages, probeHost } from './checkHost.ts';
export { removeChangedImages } from './checkImages.ts';
export type { ChrootSandbox } from './chroot/ChrootSandbox.ts';
export type { InstanceRecord } from './chroot/InstanceRecord.ts';
export { cleanupStale, listInstances } from './chroot/instanceStore.ts';
export {
  type CreateSandboxOptions,
  type CreateTargetSandboxOptions,
  createSandbox,
  openSandbox,
} from './createSandbox.ts';
export { createX86Sandbox } from './createX86Sandbox.ts';
export { emulatorStatus } from './emulator/ensureEmulator.ts';
export { isSandboxError, SandboxError, type SandboxErrorCode } from './errors.ts';
export {
  findImages,
  imageKeys,
  modeImageKey,
  modeStackKeys,
  type SandboxImages,
  userlandLayerKeys,
} from './findImages.ts';
export { DEFAULT_SUITE, ROOTFS_PACKAGES } from './imageRecipes.ts';
export { type ImageRecord, listImages, readImageRecord } from './imageStore.ts';
export { ownCgroup, parseCgroupMounts } from './limits/cgroupLimits.ts';
export { prepareHost } from './prepareHost.ts';
export { collectUserlandEvidence } from './proof/collectUserlandEvidence.ts';
export type { TreeComparison } from './proof/compareBuildTrees.ts';
export { compareBuildTrees, formatDifference } from './proof/compareBuildTrees.ts';
export { canBuildRecorder, DEFAULT_SAMPLE_PER_MILLE } from './proof/evidenceLayer.ts';
export type { UserlandEvidence } from './proof/judgeUserlandEvidence.ts';
export type { UserlandProof, UserlandProofTable } from './proof/userlandProofs.ts';
export { loadUserlandProofs } from './proof/userlandProofs.ts';
export { ensureX86Rootfs } from './provision/ensureX86Rootfs.ts';
export { RUST_TARGET } from './provision/rustLayerScript.ts';
export { type SetupOptions, type SetupResult, setupSandbox } from './provision/setupSandbox.ts';
export { removeTree } from './removeTree.ts';
export type { SandboxLimitHit } from './Sandbox.ts';
export {
  SANDBOX_MODES,
  SANDBOX_WORKSPACE,
  type Sandbox,
  type SandboxMode,
  type SandboxRunOptions,
  type SandboxRunResult,
  type SandboxSnapshot,
  type TargetMode,
} from './Sandbox.ts';
export { type SandboxPaths, sandboxPaths } from './sandboxPaths.ts';
export { type AddTargetOptions, type AddTargetResult, addTarget } from './ssh/addTarget.ts';
export { SSH_TARGET_IMAGE_ID } from './ssh/createSshSandbox.ts';
export type { SshSandbox } from './ssh/SshSandbox.ts';
export { readTargets, type TargetRecord } from './ssh/targetStore.ts';
