// The public API of the sandbox: the interface, how to get an instance, and setup/status.

export { evaluateHost, fixCommands, type HostCheck, hostPackages, probeHost } from './checkHost.ts';
export type { ChrootSandbox } from './chroot/ChrootSandbox.ts';
export type { InstanceRecord } from './chroot/InstanceRecord.ts';
export { cleanupStale, listInstances } from './chroot/instanceStore.ts';
export {
  type CreateSandboxOptions,
  type CreateTargetSandboxOptions,
  createSandbox,
  openSandbox,
} from './createSandbox.ts';

export { isSandboxError, SandboxError, type SandboxErrorCode } from './errors.ts';
export { findImages, imageKeys, type SandboxImages } from './findImages.ts';
export { type ImageRecord, listImages } from './imageStore.ts';
export { prepareHost } from './prepareHost.ts';
export { type SetupOptions, type SetupResult, setupSandbox } from './provision/setupSandbox.ts';
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
export type { SshSandbox } from './ssh/SshSandbox.ts';
export { readTargets, type TargetRecord } from './ssh/targetStore.ts';
