import { posix } from 'node:path';
import type { PackageIndex } from '../../debian/readPackageIndex.ts';
import { type AptDownload, isAllowedUri } from '../packages/parseAptUris.ts';

/** Debian's package with the static qemu-user emulators (one program per architecture). */
export const EMULATOR_PACKAGE = 'qemu-user';
/** The emulator's path inside that package. */
export const EMULATOR_MEMBER = 'usr/bin/qemu-riscv64';

export interface EmulatorDownload {
  version: string;
  download: AptDownload;
}

/**
 * The amd64 qemu-user of `index` (the tools tree's, which mmdebstrap took from the release it
 * checked the signature of), to fetch from `mirror`; or why not. The hash comes from the index,
 * so the file fetched is the one the signed release names.
 */
export function planEmulatorDownload(
  index: PackageIndex,
  mirror: string,
  allowedPrefixes: readonly string[],
): EmulatorDownload | { refused: string } {
  const candidates = (index.byName.get(EMULATOR_PACKAGE) ?? []).filter((p) => p.architecture === 'amd64');
  const chosen = candidates[0];
  if (!chosen) return { refused: `the tools tree's package index has no amd64 ${EMULATOR_PACKAGE}` };
  const uri = `${mirror.replace(/\/+$/, '')}/${chosen.filename}`;
  if (!isAllowedUri(uri, allowedPrefixes))
    return {
      refused: `${EMULATOR_PACKAGE}: no download in the archive's pool (${chosen.filename || 'no Filename'})`,
    };
  return {
    version: chosen.version,
    download: {
      uri,
      fileName: posix.basename(chosen.filename),
      size: chosen.size,
      hash: { algorithm: 'sha256', hex: chosen.sha256 },
    },
  };
}
