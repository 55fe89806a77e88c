/**
 * Reads Unix `ar` archives (static libraries): GNU and BSD long names, the symbol tables, thin
 * archives. Never throws: a damaged archive returns the members read so far and an `error`.
 */

export interface ArMember {
  name: string;
  /** Offset of the member's data inside the archive. */
  offset: number;
  size: number;
  /** The member's bytes; empty for thin archives (they hold only a path, in `name`). */
  data: Uint8Array;
}

export interface ArArchive {
  thin: boolean;
  members: ArMember[];
  /** Set when the archive ends early or a header is malformed. */
  error: string | null;
}

const AR_MAGIC = '!<arch>\n';
const THIN_MAGIC = '!<thin>\n';
const HEADER_SIZE = 60;
const HEADER_END = '`\n';

const latin1 = new TextDecoder('latin1');

export function hasArMagic(bytes: Uint8Array): boolean {
  if (bytes.length < 8) return false;
  const magic = latin1.decode(bytes.subarray(0, 8));
  return magic === AR_MAGIC || magic === THIN_MAGIC;
}

export function readArArchive(bytes: Uint8Array): ArArchive {
  if (!hasArMagic(bytes)) return { thin: false, members: [], error: 'no ar archive magic' };
  const thin = latin1.decode(bytes.subarray(0, 8)) === THIN_MAGIC;
  const members: ArMember[] = [];
  let longNames: string | null = null;
  let at = 8;
  while (at < bytes.length) {
    // a stray newline (padding) at the very end is tolerated
    if (at + 1 === bytes.length && bytes[at] === 0x0a) break;
    if (at + HEADER_SIZE > bytes.length) {
      return { thin, members, error: `truncated member header at offset ${at}` };
    }
    const header = latin1.decode(bytes.subarray(at, at + HEADER_SIZE));
    if (header.slice(58, 60) !== HEADER_END) {
      return { thin, members, error: `malformed member header at offset ${at}` };
    }
    const rawName = header.slice(0, 16).trimEnd();
    const size = Number.parseInt(header.slice(48, 58).trim(), 10);
    if (!Number.isSafeInteger(size) || size < 0) {
      return { thin, members, error: `invalid member size at offset ${at}` };
    }
    const dataStart = at + HEADER_SIZE;
    const special = rawName === '/' || rawName === '/SYM64/' || rawName === '//';
    // thin archives store only the symbol table and the long-name table inline
    const stored = !thin || special ? size : 0;
    if (dataStart + stored > bytes.length) {
      return { thin, members, error: `member at offset ${at} is truncated (${size} bytes declared)` };
    }
    let data = bytes.subarray(dataStart, dataStart + stored);
    if (rawName === '//') {
      longNames = latin1.decode(data);
    } else if (!special && !rawName.startsWith('__.SYMDEF')) {
      let name = rawName;
      const gnuLong = /^\/(\d+)$/.exec(rawName);
      const bsdLong = /^#1\/(\d+)$/.exec(rawName);
      if (gnuLong) {
        const offset = Number(gnuLong[1]);
        if (longNames === null || offset >= longNames.length) {
          return { thin, members, error: `long member name at offset ${at} has no name table entry` };
        }
        const end = longNames.indexOf('/\n', offset);
        name = longNames.slice(offset, end === -1 ? undefined : end);
      } else if (bsdLong) {
        const length = Number(bsdLong[1]);
        if (length > stored) return { thin, members, error: `BSD member name at offset ${at} is truncated` };
        name = latin1.decode(data.subarray(0, length)).replace(/\0+$/, '');
        data = data.subarray(length);
      } else if (name.endsWith('/')) {
        name = name.slice(0, -1);
      }
      members.push({ name, offset: dataStart, size: data.length, data });
    }
    at = dataStart + stored + (stored % 2);
  }
  return { thin, members, error: null };
}
