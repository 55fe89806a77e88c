import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { SourceError } from '../SourceError.ts';

const MAGIC = '!<arch>\n';
const HEADER_BYTES = 60;
const COPY_CHUNK_BYTES = 1024 * 1024;
/** A `.deb` has three members; anything near this many is not one. */
export const MAX_AR_MEMBERS = 64;
/** One member's bytes: Debian's largest data members are far below. */
export const MAX_AR_MEMBER_BYTES = 2 * 1024 * 1024 * 1024;

export interface ArLimits {
  maxMembers: number;
  maxMemberBytes: number;
}

/** One member of an ar archive: where its bytes are in the file. */
export interface ArMember {
  name: string;
  /** Byte offset of the content in the archive file. */
  offset: number;
  size: number;
}

function bad(file: string, what: string): SourceError {
  return new SourceError('acquire', `${basename(file)} is not a usable ar archive: ${what}`);
}

/** A member name as the common (System V / GNU) format stores it, without its trailing slash. */
function memberName(file: string, raw: Buffer): string {
  const name = raw.toString('latin1').trimEnd().replace(/\/$/, '');
  if (!/^[A-Za-z0-9._+~-]+$/.test(name) || name === '.' || name === '..') {
    // long-name tables (`//`, `#1/N`), symbol tables (`/`) and odd bytes: no .deb has them
    throw new SourceError(
      'unsafe-entry',
      `${basename(file)} has an ar member named ${JSON.stringify(raw.toString('latin1').trimEnd())}, which rvport does not read; refusing it`,
    );
  }
  return name;
}

/**
 * The members of an ar archive (the container of a `.deb`), read from their headers without
 * reading their content: names, and where their bytes lie. Only short plain names are
 * accepted; a member larger than the limit, past the end of the file, or named twice refuses
 * the archive.
 */
export async function readArMembers(file: string, limits: Partial<ArLimits> = {}): Promise<ArMember[]> {
  const maxMembers = limits.maxMembers ?? MAX_AR_MEMBERS;
  const maxMemberBytes = limits.maxMemberBytes ?? MAX_AR_MEMBER_BYTES;
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const { size: fileSize } = await handle.stat();
    const magic = Buffer.alloc(MAGIC.length);
    await handle.read(magic, 0, MAGIC.length, 0);
    if (magic.toString('latin1') !== MAGIC) throw bad(file, 'no ar signature');
    const members: ArMember[] = [];
    const header = Buffer.alloc(HEADER_BYTES);
    let at = MAGIC.length;
    while (at < fileSize) {
      const { bytesRead } = await handle.read(header, 0, HEADER_BYTES, at);
      if (bytesRead < HEADER_BYTES) throw bad(file, `a member header at byte ${at} is cut short`);
      if (header.toString('latin1', 58, 60) !== '`\n') throw bad(file, `no member header at byte ${at}`);
      const sizeText = header.toString('latin1', 48, 58).trim();
      if (!/^\d+$/.test(sizeText)) throw bad(file, `bad member size ${JSON.stringify(sizeText)}`);
      const size = Number(sizeText);
      const name = memberName(file, header.subarray(0, 16));
      if (size > maxMemberBytes)
        throw new SourceError(
          'archive-too-large',
          `${basename(file)}: ar member ${name} has ${size} bytes, more than the ${maxMemberBytes} allowed; refusing it`,
        );
      const offset = at + HEADER_BYTES;
      if (offset + size > fileSize) throw bad(file, `member ${name} runs past the end of the file`);
      if (members.some((m) => m.name === name)) throw bad(file, `member ${name} appears twice`);
      members.push({ name, offset, size });
      if (members.length > maxMembers)
        throw new SourceError(
          'archive-too-many-files',
          `${basename(file)} has more than ${maxMembers} ar members; refusing it`,
        );
      at = offset + size + (size % 2); // members start on even offsets
    }
    return members;
  } finally {
    await handle.close();
  }
}

/** A member's content in memory, for small members only (`debian-binary`). */
export async function readArMember(file: string, member: ArMember, maxBytes: number): Promise<Buffer> {
  if (member.size > maxBytes) throw bad(file, `member ${member.name} is larger than ${maxBytes} bytes`);
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const content = Buffer.alloc(member.size);
    const { bytesRead } = await handle.read(content, 0, member.size, member.offset);
    if (bytesRead < member.size) throw bad(file, `member ${member.name} is cut short`);
    return content;
  } finally {
    await handle.close();
  }
}

/** Copies a member's content to `dest`, a new file (nothing there is followed or replaced). */
export async function copyArMember(file: string, member: ArMember, dest: string): Promise<void> {
  const input = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  const output = await open(
    dest,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    const buffer = Buffer.alloc(Math.min(COPY_CHUNK_BYTES, Math.max(member.size, 1)));
    for (let done = 0; done < member.size; ) {
      const want = Math.min(buffer.length, member.size - done);
      const { bytesRead } = await input.read(buffer, 0, want, member.offset + done);
      if (bytesRead === 0) throw bad(file, `member ${member.name} is cut short`);
      await output.write(buffer, 0, bytesRead);
      done += bytesRead;
    }
  } finally {
    await input.close();
    await output.close();
  }
}
