import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { copyRegularFile } from '../../fs/index.ts';
import type { PortState } from '../PortState.ts';
import { artifactLocation } from '../planFromAnalysis.ts';

/** Artifacts copied to OUT/NAME/artifacts (programs and libraries), at most. */
export const MAX_COPIED_ARTIFACTS = 50;
const COPIED_ROLES = new Set(['program', 'shared-library', 'static-library']);

/**
 * The riscv64 programs and libraries leave the throwaway instance (its workspace: `src/` and
 * `dest/`) for `target` (OUT/NAME/artifacts). The build wrote them, so each copy is a plain
 * regular file rvport writes (mode 0o755 or 0o644, never setuid, setgid or sticky), read inside
 * the instance's src/ or dest/ only. An artifact that became a symbolic link is copied as the
 * file it resolves to when that stays inside its tree (`libz.so -> libz.so.1.3`), and skipped with
 * a note when it leads out of it: no host file ends up in OUT/. Devices and FIFOs are skipped too.
 */
export async function copyArtifactsOut(
  workspace: string,
  target: string,
  artifacts: PortState['artifacts'],
  note: (message: string) => void,
): Promise<string[]> {
  await rm(target, { recursive: true, force: true });
  const copied: string[] = [];
  const wanted = artifacts.filter((a) => COPIED_ROLES.has(a.role)).slice(0, MAX_COPIED_ARTIFACTS);
  for (const a of wanted) {
    const { folder, rel } = artifactLocation(a.path);
    const dest = posix.normalize(a.path);
    if (dest === '..' || dest.startsWith('../') || posix.isAbsolute(dest)) {
      note(`artifact ${a.path} not copied: not a path inside the build tree`);
      continue;
    }
    try {
      await mkdir(dirname(join(target, dest)), { recursive: true });
      copyRegularFile(join(workspace, folder), rel, join(target, dest));
      copied.push(dest);
    } catch (error) {
      note(`artifact ${a.path} not copied: ${(error as Error).message}`);
    }
  }
  return copied;
}
