import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { firstImportPath } from '../debian/DebianSourceIndex.ts';
import { goExcludes } from '../debian/goExcludes.ts';
import { parseBuildDepends } from '../debian/parseBuildDepends.ts';
import { parseQuiltSeries, type QuiltPatch } from '../debian/parseQuiltSeries.ts';
import { rulesBuildSteps } from '../debian/rulesBuildSteps.ts';
import { readFileConfined } from '../fs/index.ts';
import type { DebianPackaging } from './AcquiredSource.ts';
import { isSourceError } from './SourceError.ts';
import { type ExtractOptions, extractTarball } from './tar/extractTarball.ts';

/** A debian.tar is a few files of text; far larger ones are not packaging and are not kept. */
export const MAX_PACKAGING_BYTES = 256 * 1024 * 1024;
export const MAX_PACKAGING_ENTRIES = 20_000;
/** Size limits for the files read from the packaging (control, series, one patch). */
export const MAX_CONTROL_BYTES = 1024 * 1024;
export const MAX_PATCH_BYTES = 16 * 1024 * 1024;

/**
 * A file of the kept packaging as text: a regular file reached through folders only. The
 * packaging is hostile, and a symbolic link in it (even one that stays inside) is not followed:
 * `debian/control -> ../../etc/passwd` must never be read as Debian's knowledge.
 */
export function readPackagingFile(dir: string, rel: string, maxBytes: number): string {
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const stats = lstatSync(join(dir, ...parts.slice(0, i)));
    const last = i === parts.length;
    if (stats.isSymbolicLink()) throw new Error(`debian/${rel} is a symbolic link; not followed`);
    if (last ? !stats.isFile() : !stats.isDirectory())
      throw new Error(`debian/${rel} is not a ${last ? 'regular file' : 'folder'}`);
  }
  return readFileConfined(dir, rel, { maxBytes }).toString('utf8');
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'missing';
  return error instanceof Error ? error.message : String(error);
}

/**
 * Unpacks Debian's packaging (`NAME_VERSION.debian.tar.*`) into `dest`, a folder of rvport's
 * own outside the build tree (nothing of it is ever run on the host), and reads what a port can
 * use: the riscv64 Build-Depends and the quilt series. A packaging the extractor refuses, or
 * one without a readable control file, is not used: the upstream source is ported without it,
 * and the warnings say why.
 */
export async function keepDebianPackaging(
  file: string,
  dest: string,
  scratch: string,
  options: ExtractOptions,
): Promise<{ packaging: DebianPackaging | null; warnings: string[] }> {
  const limits = {
    maxBytes: Math.min(options.limits?.maxBytes ?? MAX_PACKAGING_BYTES, MAX_PACKAGING_BYTES),
    maxEntries: Math.min(options.limits?.maxEntries ?? MAX_PACKAGING_ENTRIES, MAX_PACKAGING_ENTRIES),
  };
  try {
    await extractTarball(file, dest, scratch, { ...options, limits });
  } catch (error) {
    if (!isSourceError(error)) throw error;
    return { packaging: null, warnings: [`Debian's packaging is not used: ${error.message}`] };
  }
  // the extractor drops the single top folder `debian/`; a tarball with more tops keeps it
  const dir = lstatOrNull(join(dest, 'control')) ? dest : join(dest, 'debian');
  let control: string;
  try {
    control = readPackagingFile(dir, 'control', MAX_CONTROL_BYTES);
  } catch (error) {
    return {
      packaging: null,
      warnings: [`Debian's packaging is not used: debian/control: ${reason(error)}`],
    };
  }
  const problems: string[] = [];
  let patches: QuiltPatch[] = [];
  try {
    const series = parseQuiltSeries(readPackagingFile(dir, 'patches/series', MAX_CONTROL_BYTES));
    problems.push(...series.refused);
    for (const patch of series.patches) {
      try {
        readPackagingFile(dir, `patches/${patch.name}`, MAX_PATCH_BYTES);
        patches.push(patch);
      } catch (error) {
        problems.push(`debian/patches/${patch.name}: ${reason(error)}`);
      }
    }
  } catch (error) {
    if (reason(error) !== 'missing') problems.push(`debian/patches/series: ${reason(error)}`);
    patches = [];
  }
  const goImportPath = firstImportPath(/^XS-Go-Import-Path:[ \t]*(.+)$/im.exec(control)?.[1]);
  const { steps: rulesSteps, goExcludes: excludes, problem } = keptRulesSteps(dir);
  if (problem) problems.push(problem);
  const packaging: DebianPackaging = {
    dir,
    buildDepends: parseBuildDepends(control),
    patches,
    problems,
    ...(goImportPath ? { goImportPath } : {}),
    ...(rulesSteps.length ? { rulesSteps } : {}),
    ...(excludes.length ? { goExcludes: excludes } : {}),
  };
  return { packaging, warnings: problems.map((p) => `Debian's packaging: ${p}`) };
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * The build steps and Go excludes of the kept debian/rules: none, and why, when it cannot be read
 * (absent: no why).
 */
function keptRulesSteps(dir: string): { steps: string[]; goExcludes: string[]; problem?: string } {
  try {
    const rules = readPackagingFile(dir, 'rules', MAX_CONTROL_BYTES);
    return { steps: rulesBuildSteps(rules), goExcludes: goExcludes(rules) };
  } catch (error) {
    return reason(error) === 'missing'
      ? { steps: [], goExcludes: [] }
      : { steps: [], goExcludes: [], problem: `debian/rules: ${reason(error)}` };
  }
}

/**
 * A packaging kept by an earlier acquisition, its Build-Depends and debian/rules steps read again
 * from the kept files: they are rvport's reading of them (the build profiles it builds with, what
 * it leaves out), which may have changed since the record was written. Unchanged when the control
 * file cannot be read.
 */
export function rereadBuildDepends(packaging: DebianPackaging): DebianPackaging {
  let buildDepends: string[][];
  try {
    buildDepends = parseBuildDepends(readPackagingFile(packaging.dir, 'control', MAX_CONTROL_BYTES));
  } catch {
    return packaging;
  }
  const { rulesSteps: _old, goExcludes: _oldExcludes, ...rest } = packaging;
  const { steps: rulesSteps, goExcludes: excludes } = keptRulesSteps(packaging.dir);
  return {
    ...rest,
    buildDepends,
    ...(rulesSteps.length ? { rulesSteps } : {}),
    ...(excludes.length ? { goExcludes: excludes } : {}),
  };
}
