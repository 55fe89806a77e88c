import type { ChrootSandbox, SandboxMode, TargetMode, UserlandProof } from '../../sandbox/index.ts';
import {
  canBuildRecorder,
  collectUserlandEvidence,
  type imageKeys,
  modeImageKey,
  type SandboxImages,
  userlandLayerKeys,
} from '../../sandbox/index.ts';
import { chooseRustLayer, loadRustProofs } from './chooseRustLayer.ts';
import { chooseSandboxMode, type ModeChoice } from './chooseSandboxMode.ts';
import { localSandboxProvider } from './localSandboxProvider.ts';
import { modeForLanguages } from './modeForLanguages.ts';
import type { PortRequest } from './PortRequest.ts';
import type { ModeAnalysis, PortServices, SandboxProvider } from './PortServices.ts';
import { sshSandboxProvider } from './sshSandboxProvider.ts';

/** The sandbox of one port, and the choices init and the build make for it once the source is known. */
export interface PortSandbox {
  provider: SandboxProvider;
  /** The seams of PortServices that choose the mode and the Rust layer and collect the evidence. */
  seams: Pick<
    PortServices,
    'chooseMode' | 'chooseRust' | 'collectModeEvidence' | 'collectFailedModeEvidence'
  >;
  /** Whether the build runs in native-userland mode on its own evidence (as chosen so far). */
  perBuild(): boolean;
}

/**
 * A local instance (whose mode init chooses for the acquired source, with the Rust layer or the
 * per-build evidence where they apply) or an SSH target, which has neither: the machine is what
 * it is, and the mode of the options stands.
 */
export function portSandbox(options: {
  request: PortRequest;
  name: string;
  home: string;
  suite: string;
  env: NodeJS.ProcessEnv;
  keys: ReturnType<typeof imageKeys>;
  images: SandboxImages;
  /** The mode the port starts in: the provisional choice, or the one an interrupted run had. */
  startMode: TargetMode;
  /** Whether the interrupted run this port resumes built on its own evidence. */
  resumedPerBuild: boolean;
  proof: UserlandProof | undefined;
  samplePerMille: number;
}): PortSandbox {
  const { request, keys, images, samplePerMille } = options;
  let perBuild = options.resumedPerBuild;
  if (options.startMode === 'native') {
    return {
      provider: sshSandboxProvider({
        home: options.home,
        suite: options.suite,
        target: request.target ?? '',
        ...(request.mirror ? { mirror: request.mirror } : {}),
        ...(request.sandboxEnv ? { env: request.sandboxEnv } : {}),
      }),
      seams: { chooseRust: () => null, collectModeEvidence: async () => undefined },
      perBuild: () => false,
    };
  }
  const imageOf = (m: SandboxMode) => modeImageKey(keys, m);
  const layers = userlandLayerKeys(keys);
  const nativeReady = Boolean(
    images.native && images.nativeTools && images.rootfs && !images.native.refusedReason,
  );
  const local = localSandboxProvider({
    home: options.home,
    suite: options.suite,
    mode: options.startMode,
    keep: request.keepSandbox,
    imageId: imageOf(options.startMode),
    ...(perBuild ? { evidence: { samplePerMille } } : {}),
    ...(request.sandboxEnv ? { env: request.sandboxEnv } : {}),
  });
  const chooseMode = (sourceTree: string, analysis: ModeAnalysis = {}): ModeChoice => {
    if (request.redoOf) return { mode: request.redoOf.mode, reason: request.redoOf.reason };
    const proven = chooseSandboxMode(request.mode, options.name, options.proof, layers, sourceTree, {
      available: request.perBuildEvidence !== false && nativeReady && canBuildRecorder(options.env),
      ...(analysis.buildSystem ? { buildSystem: analysis.buildSystem } : {}),
      samplePerMille,
    });
    const final = modeForLanguages(proven, request.mode, analysis.languages ?? []);
    perBuild = final.mode === 'native-userland' && final.evidence === 'per-build';
    local.useMode(final.mode, imageOf(final.mode), perBuild ? { samplePerMille } : undefined);
    return final;
  };
  const chooseRust = (buildSystem: string, details?: Record<string, unknown>): string | null => {
    const rust = chooseRustLayer(
      buildSystem,
      local.mode,
      options.name,
      {
        key: keys.rust,
        provisioned: !!(images.rust && images.rustTools),
        ...(images.rust?.refusedReason ? { refusedReason: images.rust.refusedReason } : {}),
      },
      loadRustProofs().proofs[options.name],
      details?.procMacro === true,
    );
    if (rust?.use) local.useRust(keys.rust);
    return rust?.reason ?? null;
  };
  return {
    provider: local,
    seams: {
      chooseMode,
      chooseRust,
      collectModeEvidence: async (box) =>
        perBuild ? collectUserlandEvidence(box as ChrootSandbox, { home: options.home }) : undefined,
      collectFailedModeEvidence: async () =>
        perBuild && local.running
          ? collectUserlandEvidence((await local.get()) as ChrootSandbox, { home: options.home })
          : undefined,
    },
    perBuild: () => perBuild,
  };
}
