import type { DebianPackaging } from '../../sources/AcquiredSource.ts';
import { MAX_PATCH_BYTES, readPackagingFile } from '../../sources/keepDebianPackaging.ts';
import { canonicalSeries, patchFileName, type SeriesPatch, type SourcePatch } from './sourcePatches.ts';

export interface DebianPatches {
  /** The port's patches, in series order, named `0001-debian-NAME.patch`. */
  patches: SourcePatch[];
  /** The Debian names (as the series lists them) of the patches that applied. */
  applied: string[];
  skipped: { name: string; reason: string }[];
}

/**
 * Debian's quilt series as the port's first patches: every patch of the series that applies
 * cleanly to the upstream tree, in order, is kept (what Debian builds is the upstream source
 * with the whole series). One that is refused or does not apply is skipped and named, never fatal.
 */
export async function debianPatches(
  sourceDir: string,
  packaging: Pick<DebianPackaging, 'dir' | 'patches'>,
  scratchParent: string,
): Promise<DebianPatches> {
  const series: SeriesPatch[] = [];
  const skipped: DebianPatches['skipped'] = [];
  for (const patch of packaging.patches) {
    try {
      series.push({
        ...patch,
        diff: readPackagingFile(packaging.dir, `patches/${patch.name}`, MAX_PATCH_BYTES),
      });
    } catch (error) {
      skipped.push({ name: patch.name, reason: `unreadable: ${(error as Error).message}` });
    }
  }
  if (series.length === 0) return { patches: [], applied: [], skipped };
  const result = await canonicalSeries(sourceDir, series, scratchParent);
  return {
    patches: result.accepted.map((p, i) => ({
      name: patchFileName(i, `debian ${p.name.replace(/\.(patch|diff)$/, '')}`),
      diff: p.diff,
    })),
    applied: result.accepted.map((p) => p.name),
    skipped: [...skipped, ...result.skipped],
  };
}
