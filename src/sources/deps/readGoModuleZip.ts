import { unzipSync } from 'fflate';
import { SourceError } from '../SourceError.ts';
import type { HashedFile } from './goDirHash.ts';

/** Go's own limits for a module zip (golang.org/x/mod/zip): 500 MiB unpacked, go.mod 16 MiB. */
export const MAX_MODULE_ZIP_BYTES = 500 * 1024 * 1024;
export const MAX_GO_MOD_BYTES = 16 * 1024 * 1024;
export const MAX_MODULE_ZIP_ENTRIES = 100_000;

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

interface CentralEntry {
  name: string;
  size: number;
  mode: number | null;
}

function refuse(what: string, name: string, why: string): SourceError {
  return new SourceError(
    'unsafe-entry',
    `${what}: refusing entry ${JSON.stringify(name.slice(0, 300))}: ${why}`,
  );
}

/**
 * The central directory of a zip, read by rvport itself: every entry's name, declared size and
 * Unix mode (when made on Unix), so links and oversize entries are refused before anything is
 * decompressed. Zip64 is refused: no module zip within Go's limits needs it.
 */
function centralDirectory(zip: Uint8Array, what: string): CentralEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new SourceError('unsafe-entry', `${what}: not a zip file`);
  const count = view.getUint16(end + 10, true);
  const size = view.getUint32(end + 12, true);
  const offset = view.getUint32(end + 16, true);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff)
    throw new SourceError('unsafe-entry', `${what}: zip64 archives are not accepted`);
  if (count > MAX_MODULE_ZIP_ENTRIES)
    throw new SourceError('archive-too-many-files', `${what}: more than ${MAX_MODULE_ZIP_ENTRIES} entries`);
  if (offset + size > end) throw new SourceError('unsafe-entry', `${what}: damaged zip directory`);
  const entries: CentralEntry[] = [];
  let at = offset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || view.getUint32(at, true) !== CENTRAL)
      throw new SourceError('unsafe-entry', `${what}: damaged zip directory`);
    const madeBy = view.getUint16(at + 4, true) >> 8;
    const uncompressed = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const external = view.getUint32(at + 38, true);
    const name = Buffer.from(zip.subarray(at + 46, at + 46 + nameLength)).toString('utf8');
    // 3: made on Unix, the high half of the external attributes is the file's mode
    entries.push({ name, size: uncompressed, mode: madeBy === 3 ? external >>> 16 : null });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The files of a Go module zip, checked the way Go checks one before it extracts it, and
 * stricter: every name under `module@version/`, no absolute path, no `.`/`..` element, no
 * backslash or NUL, no two names equal but for case, no symbolic link or other non-regular
 * file, Go's size limits. The zip is only read here (for its hash), never extracted on the host:
 * the sandbox's own go unpacks it, after checking it against go.sum itself.
 */
export function readGoModuleZip(zip: Uint8Array, module: string, version: string): HashedFile[] {
  const what = `${module}@${version}.zip`;
  const prefix = `${module}@${version}/`;
  const entries = centralDirectory(zip, what);
  const seen = new Set<string>();
  let total = 0;
  for (const e of entries) {
    if (!e.name.startsWith(prefix)) throw refuse(what, e.name, `not under ${prefix}`);
    if (e.name.includes('\0') || e.name.includes('\\'))
      throw refuse(what, e.name, 'NUL or backslash in the name');
    const parts = e.name.slice(prefix.length).split('/');
    const isDir = e.name.endsWith('/');
    if ((isDir ? parts.slice(0, -1) : parts).some((p) => p === '' || p === '.' || p === '..'))
      throw refuse(what, e.name, "empty, '.' or '..' element");
    const kind = e.mode === null ? null : e.mode & S_IFMT;
    if (kind !== null && kind !== 0 && kind !== S_IFREG && !(isDir && kind === S_IFDIR))
      throw refuse(what, e.name, kind === 0o120000 ? 'a symbolic link' : 'not a regular file');
    const folded = e.name.toLowerCase();
    if (seen.has(folded)) throw refuse(what, e.name, 'listed twice (or twice but for case)');
    seen.add(folded);
    if (e.name === `${prefix}go.mod` && e.size > MAX_GO_MOD_BYTES)
      throw refuse(what, e.name, 'go.mod too large');
    total += e.size;
    if (total > MAX_MODULE_ZIP_BYTES)
      throw new SourceError(
        'archive-too-large',
        `${what}: unpacks to more than ${MAX_MODULE_ZIP_BYTES} bytes`,
      );
  }
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip);
  } catch (error) {
    throw new SourceError('unsafe-entry', `${what}: cannot read the zip: ${(error as Error).message}`);
  }
  // the local headers must say what the directory said: nothing more, nothing else
  const declared = new Map(entries.map((e) => [e.name, e.size]));
  const names = Object.keys(files);
  if (names.length !== entries.length || names.some((n) => files[n]?.length !== declared.get(n)))
    throw new SourceError('unsafe-entry', `${what}: the zip's entries differ from its directory`);
  return names.map((name) => ({ name, data: files[name] as Uint8Array }));
}
