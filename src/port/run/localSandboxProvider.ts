import type { ChrootSandbox, SandboxMode } from '../../sandbox/index.ts';
import { createSandbox } from '../../sandbox/index.ts';
import type { SandboxProvider } from './PortServices.ts';

/**
 * The sandbox of a port on this machine: one instance, made on first use, in the mode init
 * chooses for the acquired source (until the instance exists), with the Rust layer or the
 * per-build evidence where asked for. Kept after the port only with --keep-sandbox.
 */
export function localSandboxProvider(options: {
  home: string;
  suite: string;
  mode: SandboxMode;
  keep: boolean;
  imageId: string;
  env?: Record<string, string>;
  evidence?: { samplePerMille: number };
}): SandboxProvider & {
  useMode(mode: SandboxMode, imageId: string, evidence?: { samplePerMille: number }): void;
  /** Accelerated mode with the Rust layer (the x86_64 cargo and rustc). */
  useRust(imageId: string): void;
  readonly mode: SandboxMode;
  /** Whether an instance was made (and not discarded since). */
  readonly running: boolean;
} {
  let instance: Promise<ChrootSandbox> | null = null;
  let mode = options.mode;
  let imageId = options.imageId;
  let rust = false;
  let evidence = options.evidence;
  return {
    get imageId() {
      return imageId;
    },
    get mode() {
      return mode;
    },
    get running() {
      return instance !== null;
    },
    useRust(nextImageId) {
      if (instance) throw new Error('the sandbox instance is already running without the Rust layer');
      rust = mode === 'accelerated';
      if (rust) imageId = nextImageId;
    },
    suite: options.suite,
    useMode(next, nextImageId, nextEvidence) {
      if (next === mode && Boolean(nextEvidence) === Boolean(evidence)) return;
      if (instance) throw new Error(`the sandbox instance is already running in ${mode} mode`);
      mode = next;
      imageId = nextImageId;
      evidence = nextEvidence;
    },
    get: () => {
      instance ??= createSandbox({
        home: options.home,
        suite: options.suite,
        mode,
        keep: options.keep,
        ...(rust ? { rust: true } : {}),
        ...(options.env ? { env: options.env } : {}),
        ...(evidence ? { evidence } : {}),
      });
      return instance;
    },
    discard: async () => {
      const current = instance;
      instance = null;
      if (current && !options.keep) await (await current).destroy();
    },
  };
}
