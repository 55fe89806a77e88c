import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../../fs/index.ts';

/**
 * The committed proof table: for each public corpus package, whether its port built in
 * native-userland mode produced exactly what the same port built in accelerated mode produced
 * (configure's outputs, the artifacts and every other file of the build tree), with the layer
 * keys that were compared. `bench/compare-userland.ts --record` writes it; `rvport port` reads it.
 */
export interface UserlandProof {
  identical: boolean;
  /**
   * The git tree id of the source both ports built (SourceInfo.tree): a proof is for this source
   * only; another version or a patched tree has no proof.
   */
  sourceTree?: string;
  /**
   * How both ports ended (`verified`, `escalated`, …). Only a proof of a verified port covers a
   * whole build; one that stopped early (escalated) proves nothing about the rest of it.
   */
  result?: string;
  /** The image layers compared; a proof for other layers is stale. */
  layers: { accelerated: string; 'native-userland': string };
  /** Files compared in the build tree. */
  files: number;
  /** `path:line (kind): detail`, the first few. */
  differences: string[];
  /** The same for what a test step that failed in both runs left (TreeComparison.leftByFailedTests). */
  leftByFailedTests?: string[];
  checkedAt: string;
}

export interface UserlandProofTable {
  /** How the table was produced. */
  command: string;
  proofs: Record<string, UserlandProof>;
}

export const USERLAND_PROOFS_FILE = new URL('./userlandProofs.json', import.meta.url);

export function loadUserlandProofs(file: URL | string = USERLAND_PROOFS_FILE): UserlandProofTable {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as UserlandProofTable;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { command: '', proofs: {} };
    throw error;
  }
}

export async function saveUserlandProofs(
  table: UserlandProofTable,
  file: URL | string = USERLAND_PROOFS_FILE,
): Promise<void> {
  const sorted = Object.fromEntries(Object.entries(table.proofs).sort(([a], [b]) => a.localeCompare(b)));
  const path = typeof file === 'string' ? file : fileURLToPath(file);
  await writeFileAtomic(path, `${JSON.stringify({ ...table, proofs: sorted }, null, 2)}\n`);
}
