import { posix } from 'node:path';
import { existsConfined } from '../../fs/index.ts';
import type { DebianPackaging } from '../../sources/index.ts';
import { MAX_PATCH_BYTES, readPackagingFile } from '../../sources/index.ts';
import { canonicalSeries, patchFileName, type SeriesPatch, type SourcePatch } from './sourcePatches.ts';

/** Autotools inputs and the file generated from each that the tree may ship beside it. */
const GENERATED_FROM: Record<string, string> = {
  'configure.ac': 'configure',
  'configure.in': 'configure',
  'aclocal.m4': 'configure',
  'acinclude.m4': 'configure',
  'Makefile.am': 'Makefile.in',
};

/**
 * Why a patch needs the autotools files regenerated: it changes an autotools input
 * (configure.ac, Makefile.am, …) but not the generated file the tree ships beside it. Debian
 * regenerates those (dh_autoreconf); the shipped ones do not have the change (and made newer
 * than the input, see splitDebianPatches, they keep make from calling the upstream's automake
 * version, which the sandbox rarely has). Null when the patch works on the shipped files.
 */
export function needsRegeneration(sourceDir: string, files: readonly string[]): string | null {
  for (const file of files) {
    const generated = GENERATED_FROM[posix.basename(file)];
    if (!generated) continue;
    const beside = posix.join(posix.dirname(file), generated);
    if (!files.includes(beside) && existsConfined(sourceDir, beside))
      return `changes ${file} but not the ${beside} the source ships; Debian regenerates it (dh_autoreconf), and so does the port`;
  }
  return null;
}

/**
 * `git format-patch` ends a patch with a signature (`-- ` and git's version); after the last
 * hunk it reads like one more body line, so it is dropped before the diff is checked.
 */
export function withoutSignature(patch: string): string {
  return patch.replace(/\n-- \n[^\n]*\n*$/, '\n');
}

/** rvport names Debian's patches `NNNN-debian-….patch`; they lead the port's patches. */
const DEBIAN_PATCH_NAME = /^[0-9]{4,}-debian-/;

/**
 * The port's patches split into the leading ones from Debian's series and the rest (fixes made
 * during the port). Debian's go on the tree as it was released, before the autotools timestamps
 * are set, as Debian applies them before it builds; the others after, as edits. Recognised by
 * name, so the split holds for patches back from the recipe cache or a resumed state.
 */
export function splitDebianPatches<T extends { name: string }>(
  patches: readonly T[],
): { debian: T[]; rest: T[] } {
  let n = 0;
  while (n < patches.length && DEBIAN_PATCH_NAME.test((patches[n] as T).name)) n++;
  return { debian: patches.slice(0, n), rest: patches.slice(n) };
}

export interface DebianPatches {
  /** The port's patches, in series order, named `0001-debian-NAME.patch`. */
  patches: SourcePatch[];
  /** The Debian names (as the series lists them) of the patches that applied. */
  applied: string[];
  skipped: { name: string; reason: string }[];
  /**
   * Applied patches that change an autotools input but not the generated file the tree ships
   * (needsRegeneration): the build must regenerate them, as Debian's dh_autoreconf does.
   */
  regenerate: { name: string; reason: string }[];
}

/**
 * Debian's quilt series as the port's first patches: every patch of the series that applies
 * cleanly to the upstream tree, in order, is kept (what Debian builds is the upstream source
 * with the whole series). One that only works once the autotools files are regenerated
 * (needsRegeneration) is kept and named in `regenerate`, so the plan runs autoreconf as Debian
 * does. One that is refused or does not apply is skipped and named, never fatal.
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
      const text = readPackagingFile(packaging.dir, `patches/${patch.name}`, MAX_PATCH_BYTES);
      series.push({ ...patch, diff: withoutSignature(text) });
    } catch (error) {
      skipped.push({ name: patch.name, reason: `unreadable: ${(error as Error).message}` });
    }
  }
  if (series.length === 0) return { patches: [], applied: [], skipped, regenerate: [] };
  const result = await canonicalSeries(sourceDir, series, scratchParent);
  const regenerate = result.accepted.flatMap((p) => {
    const reason = needsRegeneration(sourceDir, p.files);
    return reason ? [{ name: p.name, reason }] : [];
  });
  return {
    regenerate,
    patches: result.accepted.map((p, i) => ({
      name: patchFileName(i, `debian ${p.name.replace(/\.(patch|diff)$/, '')}`),
      diff: p.diff,
    })),
    applied: result.accepted.map((p) => p.name),
    skipped: [...skipped, ...result.skipped],
  };
}
