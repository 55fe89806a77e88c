import type { SandboxMode, UserlandProof } from '../../sandbox/index.ts';

/** `auto`: the fastest mode proven identical for the package. */
export type RequestedMode = SandboxMode | 'auto';

export interface ModeChoice {
  mode: SandboxMode;
  /** One sentence for the report: why this mode built the package. */
  reason: string;
  /**
   * What native-userland mode stands on: the committed proof table, or the build's own evidence
   * (proof/collectUserlandEvidence.ts), judged after the build; a refused build is redone in
   * accelerated mode.
   */
  evidence?: 'proof-table' | 'per-build';
}

/**
 * Build systems whose builds per-build evidence covers: configure, libtool and make drive them
 * through the swapped programs, which the recorder sees. Meson, CMake and the others run through
 * riscv64 interpreters (python3, cmake) and write state the recorder does not see.
 */
export const PER_BUILD_EVIDENCE_SYSTEMS: readonly string[] = ['autotools', 'configure', 'make'];

export interface PerBuildEvidenceOffer {
  /** The native-userland images are provisioned, so the fast userland costs no setup. */
  available: boolean;
  /** The build system the analysis found, when known. */
  buildSystem?: string;
  samplePerMille: number;
}

/** The layers in use now; a proof made with other layers proves nothing about these. */
export interface CurrentLayers {
  accelerated: string;
  'native-userland': string;
}

const PROVE_HINT = 'bench/compare-userland.ts';

/**
 * Which sandbox mode builds a package. Accelerated mode is the baseline (its compilers are proven
 * byte-identical to the emulated ones). Native-userland is used only for a package whose committed
 * proof (src/sandbox/proof/userlandProofs.json) says its port produced identical files in both
 * modes with the layers in use now, for this very source (`sourceTree`, the git tree id of the
 * acquired source; before the source is acquired it is not known, and the choice is provisional).
 * Only a proof of a port verified in both modes counts (one that escalated early covers part of a
 * build). A package proven different never builds in native-userland, whatever its version, not even when
 * asked with --mode: it falls back to accelerated and the reason says so. Asking for native-userland
 * for a package without a proof is the user's call, and the reason says that too. Without a
 * proof for this source, `auto` still takes native-userland for an autotools or plain-Make build
 * when `perBuild` offers it: the build then stands on its own evidence, judged after it, and is
 * redone in accelerated mode if that evidence falls short.
 */
export function chooseSandboxMode(
  requested: RequestedMode,
  name: string,
  proof: UserlandProof | undefined,
  layers: CurrentLayers,
  sourceTree?: string,
  perBuild?: PerBuildEvidenceOffer,
): ModeChoice {
  const current =
    proof !== undefined &&
    proof.layers.accelerated === layers.accelerated &&
    proof.layers['native-userland'] === layers['native-userland'];
  if (current && !proof.identical && requested !== 'emulated') {
    return {
      mode: 'accelerated',
      reason: `native-userland mode is proven to differ for ${name} (${proof.differences[0] ?? 'see the proof table'}); built in accelerated mode`,
    };
  }
  if (requested === 'emulated' || requested === 'accelerated') {
    return { mode: requested, reason: `chosen with --mode ${requested}` };
  }
  const sameSource =
    proof?.sourceTree !== undefined && (sourceTree === undefined || proof.sourceTree === sourceTree);
  const complete = proof?.result === 'verified';
  if (current && proof.identical && sameSource && complete) {
    return {
      mode: 'native-userland',
      evidence: 'proof-table',
      reason: `native-userland mode is proven identical to accelerated for ${name} (${proof.files} files compared, source tree ${proof.sourceTree?.slice(0, 12)}, ${proof.checkedAt.slice(0, 10)})`,
    };
  }
  const missing = !proof
    ? `no proof that native-userland mode builds ${name} identically`
    : !current
      ? `the proof for ${name} was made with other sandbox layers`
      : proof.sourceTree === undefined
        ? `the proof for ${name} does not say which source it was made with`
        : !sameSource
          ? `the proof for ${name} was made with another source (tree ${proof.sourceTree.slice(0, 12)}, this one ${sourceTree?.slice(0, 12)})`
          : `the proof for ${name} covers a port that ended ${proof.result ?? 'without a recorded result'}, not a whole build`;
  if (requested === 'native-userland') {
    return { mode: 'native-userland', reason: `chosen with --mode native-userland; ${missing}` };
  }
  if (
    perBuild?.available &&
    perBuild.buildSystem &&
    PER_BUILD_EVIDENCE_SYSTEMS.includes(perBuild.buildSystem)
  ) {
    return {
      mode: 'native-userland',
      evidence: 'per-build',
      reason: `${missing}; built in native-userland mode on the build's own evidence (every machine-dependent call of the swapped programs and ${perBuild.samplePerMille / 10} % of the others checked against their riscv64 originals, redone in accelerated mode on any difference)`,
    };
  }
  return {
    mode: 'accelerated',
    reason: `${missing} (${PROVE_HINT} ${name} makes one); built in accelerated mode`,
  };
}
