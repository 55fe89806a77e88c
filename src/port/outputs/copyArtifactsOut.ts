import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { copyRegularFile, describeKind, isConfinedPathError, statConfined } from '../../fs/index.ts';
import { MAX_INSPECT_BYTES } from '../../verify/index.ts';
import type { ArtifactRecord } from '../state/PortState.ts';
import { artifactLocation } from '../steps/planFromAnalysis.ts';

/** Artifacts copied to OUT/NAME/artifacts (programs and libraries), at most. */
export const MAX_COPIED_ARTIFACTS = 50;
/** All artifacts of one port together, by apparent size (holes counted): 2 GiB. */
export const MAX_PORT_OUTPUT_BYTES = 2 * 1024 * 1024 * 1024;
/** One artifact at most: no larger file is inspected, so no larger one can be judged on the host. */
export const MAX_ARTIFACT_BYTES = MAX_INSPECT_BYTES;
export const COPIED_ROLES: ReadonlySet<ArtifactRecord['role']> = new Set([
  'program',
  'shared-library',
  'static-library',
]);

export interface OutputLimits {
  /** All copies together, apparent size. */
  totalBytes: number;
  /** One copy, apparent size. */
  fileBytes: number;
}

export const DEFAULT_OUTPUT_LIMITS: OutputLimits = {
  totalBytes: MAX_PORT_OUTPUT_BYTES,
  fileBytes: MAX_ARTIFACT_BYTES,
};

export interface CopiedArtifact {
  /** The artifact's path (`DESTDIR/…` for the install tree), which is also its path under target. */
  path: string;
  /** SHA-256 of the bytes written, hex. */
  sha256: string;
  /** Apparent size of the copy. */
  bytes: number;
}

export interface ArtifactCopies {
  copied: CopiedArtifact[];
  /** `changed`: the file is not what the verify node judged (another size, gone, a link). */
  refused: { path: string; reason: string; changed: boolean }[];
  /** Apparent size of the copies together. */
  bytes: number;
  limits: OutputLimits;
}

/**
 * The riscv64 programs and libraries leave the throwaway instance (its workspace: `src/` and
 * `dest/`) for `target` (OUT/NAME/artifacts). The build wrote them, so each copy is a plain
 * regular file rvport writes (mode 0o755 or 0o644, never setuid, setgid or sticky), read inside
 * the instance's src/ or dest/ only. An artifact that became a symbolic link is copied as the
 * file it resolves to when that stays inside its tree (`libz.so -> libz.so.1.3`), and refused
 * when it leads out of it: no host file ends up in OUT/. Devices and FIFOs are refused too.
 * Holes stay holes, and apparent sizes are held against one limit per file and one for the port:
 * a KiB of data padded to GiB with holes is refused, not written out dense. Each copy carries the
 * SHA-256 of what was written, for judging it against what was verified.
 */
export async function copyArtifactsOut(
  workspace: string,
  target: string,
  artifacts: readonly ArtifactRecord[],
  note: (message: string) => void,
  limits: OutputLimits = DEFAULT_OUTPUT_LIMITS,
): Promise<ArtifactCopies> {
  await rm(target, { recursive: true, force: true });
  const copies: ArtifactCopies = { copied: [], refused: [], bytes: 0, limits };
  const refuse = (path: string, reason: string, changed: boolean) => {
    note(`artifact ${path} not copied: ${reason}`);
    copies.refused.push({ path, reason, changed });
  };
  const wanted = artifacts.filter((a) => COPIED_ROLES.has(a.role)).slice(0, MAX_COPIED_ARTIFACTS);
  for (const a of wanted) {
    const { folder, rel } = artifactLocation(a.path);
    const dest = posix.normalize(a.path);
    if (dest === '..' || dest.startsWith('../') || posix.isAbsolute(dest)) {
      refuse(a.path, 'not a path inside the build tree', false);
      continue;
    }
    const root = join(workspace, folder);
    let size: number;
    try {
      const { stats } = statConfined(root, rel);
      if (!stats.isFile()) throw new Error(`${rel} is ${describeKind(stats)}, not a regular file`);
      size = stats.size;
    } catch (error) {
      // the verify node read a regular file here: whatever it is now, it is not what was judged
      refuse(a.path, `${(error as Error).message} (it changed after verification)`, true);
      continue;
    }
    const changed = a.size !== undefined && a.size !== size;
    const was = changed ? ` (${a.size} bytes when verified: it changed after verification)` : '';
    if (size > limits.fileBytes) {
      refuse(
        a.path,
        `${size} bytes (apparent size), over the limit of ${limits.fileBytes} per artifact${was}`,
        changed,
      );
      continue;
    }
    if (copies.bytes + size > limits.totalBytes) {
      refuse(
        a.path,
        `${size} bytes (apparent size) would take the port's artifacts past their limit of ${limits.totalBytes} bytes together${was}`,
        changed,
      );
      continue;
    }
    try {
      await mkdir(dirname(join(target, dest)), { recursive: true });
      const maxBytes = Math.min(limits.fileBytes, limits.totalBytes - copies.bytes);
      const copy = copyRegularFile(root, rel, join(target, dest), { maxBytes });
      copies.copied.push({ path: a.path, sha256: copy.sha256, bytes: copy.bytes });
      copies.bytes += copy.bytes;
    } catch (error) {
      const grew = isConfinedPathError(error) && error.code === 'too-large';
      refuse(a.path, (error as Error).message, grew || changed);
    }
  }
  return copies;
}
