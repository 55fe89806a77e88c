import type { AcquiredSource } from '../sources/AcquiredSource.ts';
import type { DebianKnowledge } from './PortState.ts';
import { debianPatches } from './patches/debianPatches.ts';
import type { SourcePatch } from './patches/sourcePatches.ts';

/**
 * What a port starts with from Debian's packaging of an acquired `debian:` source: its riscv64
 * Build-Depends (installed by the build, see installBuildDepends) and its quilt patches that
 * apply to the upstream tree (the port's first patches). Null for other sources, and for a
 * Debian source whose packaging was missing or not usable.
 */
export async function debianKnowledge(
  source: Pick<AcquiredSource, 'dir' | 'debian'>,
  scratchParent: string,
): Promise<{ debian: DebianKnowledge; patches: SourcePatch[] } | null> {
  const packaging = source.debian?.packaging;
  if (!packaging) return null;
  const series = await debianPatches(source.dir, packaging, scratchParent);
  return {
    debian: {
      buildDepends: packaging.buildDepends,
      installed: [],
      leftOut: [],
      patchesApplied: series.applied,
      patchesSkipped: series.skipped,
    },
    patches: series.patches,
  };
}
