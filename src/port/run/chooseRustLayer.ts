import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../../fs/index.ts';
import type { SandboxMode } from '../../sandbox/index.ts';

/**
 * Whether a Cargo package's port with the x86_64 cargo and rustc (the Rust layer) produced the
 * same riscv64 artifacts as its emulated port: its build scripts and proc-macros ran as x86_64
 * programs, which a build script that looks at its own architecture instead of
 * CARGO_CFG_TARGET_ARCH would notice. `bench/rust-go-debian.ts --record` writes the table.
 */
export interface RustProof {
  identical: boolean;
  /** The Rust layer compared; a proof for another layer is stale. */
  layer: string;
  /** Target artifacts compared (host units are x86_64 by design and are not compared). */
  files: number;
  differences: string[];
  checkedAt: string;
}

export interface RustProofTable {
  command: string;
  proofs: Record<string, RustProof>;
}

export const RUST_PROOFS_FILE = new URL('./rustProofs.json', import.meta.url);

export function loadRustProofs(file: URL | string = RUST_PROOFS_FILE): RustProofTable {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RustProofTable;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { command: '', proofs: {} };
    throw error;
  }
}

export async function saveRustProofs(
  table: RustProofTable,
  file: URL | string = RUST_PROOFS_FILE,
): Promise<void> {
  const sorted = Object.fromEntries(Object.entries(table.proofs).sort(([a], [b]) => a.localeCompare(b)));
  const path = typeof file === 'string' ? file : fileURLToPath(file);
  await writeFileAtomic(path, `${JSON.stringify({ ...table, proofs: sorted }, null, 2)}\n`);
}

export interface RustLayerState {
  /** The Rust layer's key (the images it would use). */
  key: string;
  /** Provisioned (Rust tools tree and layer both present). */
  provisioned: boolean;
  /** Why provisioning refused the layer (toolchain versions differ). */
  refusedReason?: string;
}

export interface RustLayerChoice {
  use: boolean;
  /** One sentence for the report. */
  reason: string;
}

const SETUP_HINT = 'rvport sandbox setup --mode accelerated --rust';

/**
 * Which rustc builds a Cargo package in accelerated mode. The x86_64 one is the same Debian
 * version as the riscv64 one and links the rootfs's own riscv64 std, so, as for the cross gcc,
 * it is the default; a package whose proof (for this very layer) found different artifacts builds
 * with the emulated rustc. Null for a package that does not build with Cargo or a mode without it.
 */
export function chooseRustLayer(
  buildSystem: string,
  mode: SandboxMode,
  name: string,
  layer: RustLayerState,
  proof: RustProof | undefined,
  procMacro = false,
): RustLayerChoice | null {
  if (buildSystem !== 'cargo' || mode !== 'accelerated') return null;
  // the crate's own artifact is a plugin of the rustc that builds it: riscv64 only from the riscv64 one
  if (procMacro)
    return {
      use: false,
      reason: `${name} is a proc-macro crate, a plugin for the rustc that runs it, so its riscv64 artifact comes from the riscv64 rustc; rustc runs emulated`,
    };
  if (layer.refusedReason) {
    return { use: false, reason: `the Rust layer was refused (${layer.refusedReason}); rustc runs emulated` };
  }
  if (!layer.provisioned) {
    return { use: false, reason: `the Rust layer is not provisioned (${SETUP_HINT}); rustc runs emulated` };
  }
  const current = proof?.layer === layer.key;
  if (current && !proof.identical) {
    return {
      use: false,
      reason: `the x86_64 Rust toolchain is proven to build ${name} differently (${proof.differences[0] ?? 'see the Rust proof table'}); rustc runs emulated`,
    };
  }
  if (current) {
    return {
      use: true,
      reason: `x86_64 cargo and rustc (${layer.key}), proven identical to the emulated build for ${name} (${proof.files} artifacts, ${proof.checkedAt.slice(0, 10)})`,
    };
  }
  return {
    use: true,
    reason: `x86_64 cargo and rustc (${layer.key}); ${proof ? `the proof for ${name} was made with another Rust layer` : `no proof for ${name} yet`} (bench/rust-go-debian.ts makes one)`,
  };
}
