import { mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { SourceError } from '../SourceError.ts';
import {
  type ExtractOptions,
  extractTarball,
  MAX_TARBALL_ENTRIES,
  normalizeEntryName,
} from '../tar/extractTarball.ts';
import { openDecompressed } from '../tar/openDecompressed.ts';
import { readTar } from '../tar/readTar.ts';
import { copyArMember, readArMember, readArMembers } from './readAr.ts';

/** The data member of a binary package, in every compression dpkg-deb writes or reads. */
const DATA_MEMBER = /^data\.tar(\.(gz|xz|zst|bz2|lzma))?$/;

/** Which folder of the package's files to take: one of the folders directly under `parent`. */
export interface DebFolderChoice {
  /** A normalized path inside the package, such as `usr/share/cargo/registry`. */
  parent: string;
  /** The folder to take among the names under `parent`, or null when none is the right one. */
  pick: (names: readonly string[]) => string | null;
}

/**
 * Unpacks one folder of a Debian binary package (`.deb`) into `dest`, which it becomes the root
 * of. The package is hostile input: rvport reads its ar container and its data tarball itself
 * (nothing runs dpkg-deb, ar or tar on it), and the tarball goes through extractTarball, which
 * refuses paths and links leading out and enforces the size limits. Returns the folder's path
 * in the package. A package without such a folder is refused.
 */
export async function extractDebFolder(
  deb: string,
  dest: string,
  scratch: string,
  choice: DebFolderChoice,
  options: ExtractOptions = {},
): Promise<string> {
  const members = await readArMembers(deb, {
    ...(options.limits?.maxBytes ? { maxMemberBytes: options.limits.maxBytes } : {}),
  });
  const [first] = members;
  const format =
    first?.name === 'debian-binary' ? (await readArMember(deb, first, 64)).toString('latin1') : '';
  if (!/^2\.\d+\n/.test(format))
    throw new SourceError(
      'acquire',
      `${basename(deb)} is not a Debian binary package (no debian-binary 2.x first); refusing it`,
    );
  const data = members.filter((m) => DATA_MEMBER.test(m.name));
  const [member] = data;
  if (!member || data.length > 1)
    throw new SourceError(
      'acquire',
      `${basename(deb)} has ${data.length === 0 ? 'no' : 'more than one'} data.tar member; refusing it`,
    );
  const dir = join(scratch, 'deb-data');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const tarball = join(dir, member.name);
  await copyArMember(deb, member, tarball);

  const parent = normalizeEntryName(choice.parent);
  const names = await foldersUnder(tarball, parent, options);
  const picked = choice.pick(names);
  if (!picked)
    throw new SourceError(
      'acquire',
      `${basename(deb)} has no matching folder under /${parent} (it has ${names.length ? names.join(', ') : 'none'}); refusing it`,
    );
  const root = `${parent}/${picked}`;
  await extractTarball(tarball, dest, scratch, { ...options, root });
  return root;
}

/** The names directly under `parent` in a tarball, read without writing anything. */
async function foldersUnder(tarball: string, parent: string, options: ExtractOptions): Promise<string[]> {
  const maxEntries = options.limits?.maxEntries ?? MAX_TARBALL_ENTRIES;
  const prefix = `${parent}/`;
  const names = new Set<string>();
  let entries = 0;
  const input = await openDecompressed(tarball, options.signal);
  try {
    await readTar(input.stream, async (entry) => {
      entries += 1;
      if (entries > maxEntries)
        throw new SourceError(
          'archive-too-many-files',
          `${basename(tarball)} has more than ${maxEntries} entries; refusing it`,
        );
      const path = normalizeEntryName(entry.name);
      if (!path.startsWith(prefix)) return;
      const name = path.slice(prefix.length).split('/')[0];
      if (name) names.add(name);
    });
  } catch (error) {
    input.close();
    await input.finished().catch(() => {});
    throw error;
  }
  input.close();
  await input.finished();
  return [...names].sort();
}
