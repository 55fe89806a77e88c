import type { AcquiredSource } from '../../sources/index.ts';
import { crateSourceNote } from '../../sources/index.ts';
import { debianPatches } from '../patches/debianPatches.ts';
import type { SourcePatch } from '../patches/sourcePatches.ts';
import type { DebianKnowledge } from '../state/PortState.ts';

/** A warning about Debian's packaging itself (missing or refused): the report's Debian section says it. */
export function isPackagingWarning(warning: string): boolean {
  return warning.startsWith("Debian's packaging");
}

/**
 * What a port starts with from Debian's packaging of an acquired `debian:` source: its riscv64
 * Build-Depends (installed by the build, see installBuildDepends) and its quilt patches that
 * apply to the upstream tree (the port's first patches). Null for other sources; for a Debian
 * source whose packaging was missing or refused, only why.
 */
export async function debianKnowledge(
  source: Pick<AcquiredSource, 'dir' | 'debian' | 'warnings'>,
  scratchParent: string,
): Promise<{ debian: DebianKnowledge; patches: SourcePatch[] } | null> {
  if (!source.debian) return null;
  const packaging = source.debian.packaging;
  const nothing = { buildDepends: [], installed: [], leftOut: [], patchesApplied: [], patchesSkipped: [] };
  if (!packaging) {
    // why there is none (a mirror without the debian.tar, a refused one) is in the warnings;
    // a crate package's tree has Debian's patches applied already
    const problems = [
      ...(source.debian.binary ? [crateSourceNote(source.debian.binary)] : []),
      ...source.warnings.filter(isPackagingWarning),
    ];
    return problems.length ? { debian: { ...nothing, problems }, patches: [] } : null;
  }
  const series = await debianPatches(source.dir, packaging, scratchParent);
  return {
    debian: {
      ...nothing,
      buildDepends: packaging.buildDepends,
      patchesApplied: series.applied,
      patchesSkipped: series.skipped,
      problems: packaging.problems,
      ...(packaging.goImportPath ? { goImportPath: packaging.goImportPath } : {}),
      ...(packaging.rulesSteps ? { rulesSteps: packaging.rulesSteps } : {}),
      ...(packaging.goExcludes ? { goExcludes: packaging.goExcludes } : {}),
      packagingDir: packaging.dir,
      ...(series.regenerate.length ? { regenerate: series.regenerate } : {}),
    },
    patches: series.patches,
  };
}
