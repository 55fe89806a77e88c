import type { RunOutcome } from '../../engine/index.ts';
import type { RecipeEntry } from '../../recipes/RecipeEntry.ts';
import { type PortFiles, writeCacheHitOutputs } from '../outputs/writePortOutputs.ts';
import type { PortState } from '../state/PortState.ts';

export type PortResultKind = 'verified' | 'not_verified' | 'escalated' | 'interrupted' | 'package_failed';

export interface PortResult {
  kind: PortResultKind;
  exitCode: number;
  outDir: string;
  cacheHit: boolean;
  resumed: boolean;
  state: PortState | null;
  files: PortFiles;
  message: string;
}

/**
 * A cache hit writes the recipe again without a sandbox. The cache keeps recipes, not built
 * files, so `--package` cannot be answered from it: the recipe is written, and exit 2 says why
 * there is no zip and how to get one.
 */
export async function cacheHitResult(
  entry: RecipeEntry,
  outDir: string,
  name: string,
  packageWanted: boolean,
  /** What the hit is for: `for commit …, sandbox …`. */
  about?: string,
): Promise<PortResult> {
  const files = await writeCacheHitOutputs(entry, outDir);
  const verified = entry.verification.verdict === 'verified';
  const hit = `recipe cache hit for ${name} (${entry.verification.verdict}, built ${entry.createdAt}${about ? `; ${about}` : ''})`;
  const base = { outDir, cacheHit: true, resumed: false, state: null };
  if (packageWanted && verified) {
    const packageError =
      'the recipe cache keeps the recipe, not the built files; run again with --force to build and package them';
    return {
      ...base,
      kind: 'package_failed',
      exitCode: 2,
      files: { ...files, packageError },
      message: `${hit}, but no ${name}-riscv64.zip: ${packageError}`,
    };
  }
  return {
    ...base,
    kind: verified ? 'verified' : 'not_verified',
    exitCode: verified ? 0 : 3,
    files,
    message: hit,
  };
}

/**
 * What a port that ran comes to, exit codes as SPEC section 2: interrupted (130, resumable),
 * escalated (1), the package not written (2), verified (0), or built but not proven (3).
 */
export function portResult(
  state: PortState,
  run: { outcome: RunOutcome; resumed: boolean; stoppedAt: string | null },
  outDir: string,
  files: PortFiles,
  packageWanted: boolean,
): PortResult {
  const base = { outDir, cacheHit: false, resumed: run.resumed, state, files };
  if (run.outcome === 'interrupted')
    return {
      ...base,
      kind: 'interrupted',
      exitCode: 130,
      message: `interrupted at ${run.stoppedAt}; run the same command to resume`,
    };
  if (state.buildStatus === 'ESCALATED' || state.buildStatus === 'FAILED')
    return { ...base, kind: 'escalated', exitCode: 1, message: `escalated: ${state.escalationReason}` };
  if (packageWanted && files.packageError)
    return {
      ...base,
      kind: 'package_failed',
      exitCode: 2,
      message: `the port succeeded but the package could not be written: ${files.packageError}`,
    };
  return state.verification?.verdict === 'verified'
    ? { ...base, kind: 'verified', exitCode: 0, message: `verified: ${state.verification?.reason}` }
    : {
        ...base,
        kind: 'not_verified',
        exitCode: 3,
        message: `built, but no riscv64 output was proven: ${state.verification?.reason ?? 'no verification'}`,
      };
}
