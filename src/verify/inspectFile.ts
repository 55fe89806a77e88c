import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isConfinedPathError, readFileConfined } from '../fs/index.ts';
import { hasArMagic, readArArchive } from './readArArchive.ts';
import { type ElfResult, hasElfMagic, type Linkage, type Machine, readElf } from './readElf.ts';
import { readThinMembers, type ThinArchiveScope, type ThinMember } from './readThinMembers.ts';

/** The ELF facts of one file or archive member, as `rvport verify --json` prints them. */
export interface ElfFacts {
  path: string;
  /** `elf` parsed; `archive` an `ar` library (see `members`); `not_elf` anything else. */
  kind: 'elf' | 'archive' | 'not_elf' | 'broken_elf' | 'unreadable';
  machine: Machine | null;
  bits: 32 | 64 | null;
  endian: 'little' | 'big' | null;
  /** relocatable, executable, shared, core, other; `archive`; `not_elf`. */
  type: string;
  abi: string | null;
  interpreter: string | null;
  linkage: Linkage | null;
  pie: boolean | null;
  floatAbi: string | null;
  rvc: boolean | null;
  /** Why the file could not be read completely (truncated, not ELF, …). */
  error: string | null;
  members?: ElfFacts[];
}

/** Files above this size are not read (no build output we verify is that large). */
export const MAX_INSPECT_BYTES = 1024 * 1024 * 1024;

export function factsFromElf(path: string, result: ElfResult): ElfFacts {
  if (result.ok) {
    return {
      path,
      kind: 'elf',
      machine: result.machine,
      bits: result.bits,
      endian: result.endian,
      type: result.type,
      abi: result.abi,
      interpreter: result.interpreter,
      linkage: result.linkage,
      pie: result.pie,
      floatAbi: result.floatAbi,
      rvc: result.rvc,
      error: null,
    };
  }
  const p = result.partial ?? {};
  return {
    path,
    kind: result.error === 'not_elf' ? 'not_elf' : 'broken_elf',
    machine: p.machine ?? null,
    bits: p.bits ?? null,
    endian: p.endian ?? null,
    type: result.error === 'not_elf' ? 'not_elf' : (p.type ?? 'other'),
    abi: p.abi ?? null,
    interpreter: null,
    linkage: null,
    pie: null,
    floatAbi: p.floatAbi ?? null,
    rvc: p.rvc ?? null,
    error: result.reason,
  };
}

/**
 * A member of a thin archive, from the file it names. One that could not be read is reported as
 * unreadable: it is never evidence of another machine.
 */
function thinMemberFacts(path: string, member: ThinMember | undefined): ElfFacts {
  if (!member)
    return { ...emptyFacts(path, 'unreadable'), error: 'thin archive member (its file was not read)' };
  if ('unreadable' in member) return { ...emptyFacts(path, 'unreadable'), error: member.unreadable };
  if (!hasElfMagic(member.bytes)) return { ...emptyFacts(path, 'not_elf'), error: 'not an ELF file' };
  return factsFromElf(path, readElf(member.bytes));
}

/**
 * Inspects bytes already in memory: an ELF file, an `ar` archive, or something else. The members
 * of a thin archive are taken from `thinMembers` (readThinMembers), by name.
 */
export function inspectBytes(
  path: string,
  bytes: Uint8Array,
  thinMembers?: ReadonlyMap<string, ThinMember> | null,
): ElfFacts {
  if (hasArMagic(bytes)) {
    const archive = readArArchive(bytes);
    const members = archive.members.map((m) =>
      archive.thin
        ? thinMemberFacts(`${path}(${m.name})`, thinMembers?.get(m.name))
        : factsFromElf(`${path}(${m.name})`, readElf(m.data)),
    );
    const machines = new Set(members.flatMap((m) => (m.machine ? [m.machine] : [])));
    const bits = new Set(members.flatMap((m) => (m.bits ? [m.bits] : [])));
    const endians = new Set(members.flatMap((m) => (m.endian ? [m.endian] : [])));
    const abis = new Set(members.flatMap((m) => (m.abi ? [m.abi] : [])));
    const only = <T>(s: Set<T>): T | null => (s.size === 1 ? ([...s][0] ?? null) : null);
    return {
      ...emptyFacts(path, 'archive'),
      machine: machines.size > 1 ? 'other' : only(machines),
      bits: only(bits),
      endian: only(endians),
      abi: only(abis),
      error: archive.error,
      members,
    };
  }
  if (hasElfMagic(bytes)) return factsFromElf(path, readElf(bytes));
  return { ...emptyFacts(path, 'not_elf'), error: 'not an ELF file or ar archive' };
}

function emptyFacts(path: string, kind: ElfFacts['kind']): ElfFacts {
  return {
    path,
    kind,
    machine: null,
    bits: null,
    endian: null,
    type: kind === 'archive' ? 'archive' : kind,
    abi: null,
    interpreter: null,
    linkage: null,
    pie: null,
    floatAbi: null,
    rvc: null,
    error: null,
  };
}

/** From a file's first bytes, so folder walks skip non-binary files cheaply. */
export function looksBinaryObject(head: Uint8Array): boolean {
  return hasElfMagic(head) || hasArMagic(head);
}

/** What inspectFileIn judged, and which bytes: their SHA-256 and length (null when unread). */
export interface InspectedFile {
  facts: ElfFacts;
  sha256: string | null;
  size: number | null;
}

/**
 * Inspects a file of an untrusted tree (a build's output folder): read inside `root` only, so a
 * link the build planted to a host file is reported unreadable with the reason, never read; a
 * thin archive's members too (`builtAt`: where the root was when the archive was made). Never
 * throws; `shown` is the path the facts carry.
 */
export async function inspectFileIn(
  root: string,
  rel: string,
  shown: string,
  builtAt?: string,
): Promise<ElfFacts> {
  return (await inspectAndDigestIn(root, rel, shown, builtAt)).facts;
}

/**
 * inspectFileIn, with the digest of the very bytes judged: a later copy of the file can be held
 * against it (the file changed after it was judged, or it did not).
 */
export async function inspectAndDigestIn(
  root: string,
  rel: string,
  shown: string,
  builtAt?: string,
): Promise<InspectedFile> {
  try {
    const bytes = readFileConfined(root, rel, { maxBytes: MAX_INSPECT_BYTES });
    const thin = await readThinMembers(join(root, rel), bytes, { root, ...(builtAt ? { builtAt } : {}) });
    return {
      facts: inspectBytes(shown, bytes, thin),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
    };
  } catch (error) {
    const message =
      isConfinedPathError(error) && error.code === 'too-large'
        ? `file too large to inspect (over ${MAX_INSPECT_BYTES} bytes)`
        : error instanceof Error
          ? error.message
          : String(error);
    return { facts: { ...emptyFacts(shown, 'unreadable'), error: message }, sha256: null, size: null };
  }
}

/**
 * Inspects a file the user named on the host. Opened without blocking and checked to be a
 * regular file before it is read, from the same descriptor (a FIFO or device is reported, not
 * read). The members of a thin archive are read from the files they name, inside `scope.root`
 * (by default the archive's folder). Never throws: an unreadable file is reported as such.
 */
export async function inspectFile(path: string, scope?: Partial<ThinArchiveScope>): Promise<ElfFacts> {
  try {
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return { ...emptyFacts(path, 'unreadable'), error: 'not a regular file' };
      if (stats.size > MAX_INSPECT_BYTES) {
        return {
          ...emptyFacts(path, 'unreadable'),
          error: `file too large to inspect (${stats.size} bytes)`,
        };
      }
      const bytes = await handle.readFile();
      const thin = await readThinMembers(path, bytes, { root: dirname(path), ...scope });
      return inspectBytes(path, bytes, thin);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ...emptyFacts(path, 'unreadable'), error: message };
  }
}
