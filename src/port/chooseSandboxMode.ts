import type { UserlandProof } from '../sandbox/proof/userlandProofs.ts';
import type { SandboxMode } from '../sandbox/Sandbox.ts';

/** `auto`: the fastest mode proven identical for the package. */
export type RequestedMode = SandboxMode | 'auto';

export interface ModeChoice {
  mode: SandboxMode;
  /** One sentence for the report: why this mode built the package. */
  reason: string;
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
 * modes with the layers in use now. A package proven different never builds in native-userland,
 * not even when asked with --mode: it falls back to accelerated and the reason says so. Asking for
 * native-userland for a package without a proof is the user's call, and the reason says that too.
 */
export function chooseSandboxMode(
  requested: RequestedMode,
  name: string,
  proof: UserlandProof | undefined,
  layers: CurrentLayers,
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
  if (current && proof.identical) {
    return {
      mode: 'native-userland',
      reason: `native-userland mode is proven identical to accelerated for ${name} (${proof.files} files compared, ${proof.checkedAt.slice(0, 10)})`,
    };
  }
  const missing = proof
    ? `the proof for ${name} was made with other sandbox layers`
    : `no proof that native-userland mode builds ${name} identically`;
  if (requested === 'native-userland') {
    return { mode: 'native-userland', reason: `chosen with --mode native-userland; ${missing}` };
  }
  return {
    mode: 'accelerated',
    reason: `${missing} (${PROVE_HINT} ${name} makes one); built in accelerated mode`,
  };
}
