/**
 * Reads the `.riscv.attributes` section of a RISC-V ELF file: the ISA string the compiler recorded
 * (Tag_RISCV_arch), so performance mode can show that a `-march` tune really reached the object
 * code. Our own bounds-checked parser, like readElf: a truncated or hostile file gives an error
 * value, never an exception.
 */

export interface RiscvAttributes {
  ok: true;
  /** Tag_RISCV_arch, e.g. `rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zba1p0`; null when absent. */
  arch: string | null;
  /** Extension names of `arch` without versions (`i`, `m`, …, `zba`). */
  extensions: string[];
  /** Every attribute read, tag number → value. */
  tags: Record<number, string | number>;
}

export interface RiscvAttributesError {
  ok: false;
  reason: string;
}

const SHT_RISCV_ATTRIBUTES = 0x70000003;
const TAG_FILE = 1;
const TAG_RISCV_ARCH = 5;
const MAX_SECTIONS = 65_536;
const MAX_ATTRIBUTES_BYTES = 1024 * 1024;

class Truncated extends Error {}

/** The attributes of an ELF image in memory. Never throws. */
export function readRiscvAttributes(bytes: Uint8Array): RiscvAttributes | RiscvAttributesError {
  try {
    const section = findAttributesSection(bytes);
    if (!section) return { ok: false, reason: 'the file has no .riscv.attributes section' };
    return parseAttributes(section);
  } catch (error) {
    if (error instanceof Truncated) return { ok: false, reason: `truncated or malformed: ${error.message}` };
    return { ok: false, reason: `unreadable: ${(error as Error).message}` };
  }
}

/** The extension names of an ISA string such as `rv64i2p1_m2p0_zba1p0` (or `rv64gc_zba`). */
export function isaExtensions(arch: string): string[] {
  const match = /^rv(?:32|64|128)(.*)$/i.exec(arch.trim().toLowerCase());
  if (!match) return [];
  const [single = '', ...multi] = (match[1] ?? '').split('_');
  const names: string[] = [];
  // the first group is single letters, each with an optional version (2p1)
  for (const m of single.matchAll(/([a-z])(\d+(?:p\d+)?)?/g)) {
    const letter = m[1] ?? '';
    if (letter === 'g') names.push('i', 'm', 'a', 'f', 'd', 'zicsr', 'zifencei');
    else names.push(letter);
  }
  for (const part of multi) {
    const name = /^([a-z][a-z0-9]*?)(\d+(?:p\d+)?)?$/.exec(part)?.[1];
    if (name) names.push(name);
  }
  return [...new Set(names)];
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function need(bytes: Uint8Array, offset: number, size: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0 || size < 0 || offset + size > bytes.length)
    throw new Truncated(`${size} bytes at ${offset} are past the end (${bytes.length})`);
}

function findAttributesSection(bytes: Uint8Array): Uint8Array | null {
  need(bytes, 0, 16);
  if (bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46)
    throw new Truncated('no ELF magic number');
  const bits = bytes[4] === 2 ? 64 : 32;
  const little = bytes[5] !== 2;
  const v = view(bytes);
  const header = bits === 64 ? 64 : 52;
  need(bytes, 0, header);
  const shoff = bits === 64 ? Number(v.getBigUint64(40, little)) : v.getUint32(32, little);
  const shentsize = v.getUint16(bits === 64 ? 58 : 46, little);
  const shnum = v.getUint16(bits === 64 ? 60 : 48, little);
  if (shoff === 0 || shnum === 0) return null;
  if (shnum > MAX_SECTIONS || shentsize < (bits === 64 ? 64 : 40))
    throw new Truncated(`implausible section table (${shnum} entries of ${shentsize} bytes)`);
  need(bytes, shoff, shnum * shentsize);
  for (let i = 0; i < shnum; i++) {
    const at = shoff + i * shentsize;
    const type = v.getUint32(at + 4, little);
    if (type !== SHT_RISCV_ATTRIBUTES) continue;
    const offset = bits === 64 ? Number(v.getBigUint64(at + 24, little)) : v.getUint32(at + 16, little);
    const size = bits === 64 ? Number(v.getBigUint64(at + 32, little)) : v.getUint32(at + 20, little);
    if (size > MAX_ATTRIBUTES_BYTES) throw new Truncated(`implausible attributes size ${size}`);
    need(bytes, offset, size);
    return bytes.subarray(offset, offset + size);
  }
  return null;
}

/** ULEB128 at `at`: its value and the offset after it. */
function uleb(bytes: Uint8Array, at: number, end: number): [number, number] {
  let value = 0;
  let shift = 0;
  let i = at;
  for (;;) {
    if (i >= end) throw new Truncated('a ULEB128 number runs past its subsection');
    const byte = bytes[i++] ?? 0;
    if (shift < 49) value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return [value, i];
  }
}

function ntbs(bytes: Uint8Array, at: number, end: number): [string, number] {
  const nul = bytes.subarray(at, end).indexOf(0);
  if (nul === -1) throw new Truncated('a string attribute has no terminating NUL');
  return [new TextDecoder().decode(bytes.subarray(at, at + nul)), at + nul + 1];
}

/**
 * The build attributes format: `A`, then subsections (u32 length, vendor name, then
 * sub-subsections of tag, u32 length and attributes). RISC-V attributes with an odd tag are
 * strings, even ones ULEB128 numbers (the psABI's rule for every tag, known or not).
 */
function parseAttributes(section: Uint8Array): RiscvAttributes {
  if (section[0] !== 0x41) throw new Truncated(`format version ${section[0]} is not 'A'`);
  const v = view(section);
  const tags: Record<number, string | number> = {};
  let at = 1;
  while (at < section.length) {
    need(section, at, 4);
    const length = v.getUint32(at, true);
    if (length < 4) throw new Truncated(`subsection length ${length}`);
    const end = at + length;
    need(section, at, length);
    const [vendor, afterVendor] = ntbs(section, at + 4, end);
    let sub = afterVendor;
    while (vendor === 'riscv' && sub < end) {
      const [tag, afterTag] = uleb(section, sub, end);
      need(section, afterTag, 4);
      const subLength = v.getUint32(afterTag, true);
      const subEnd = sub + subLength;
      if (subLength < 5 || subEnd > end) throw new Truncated(`sub-subsection length ${subLength}`);
      let a = afterTag + 4;
      while (tag === TAG_FILE && a < subEnd) {
        const [attribute, afterAttribute] = uleb(section, a, subEnd);
        const [value, next] =
          attribute % 2 === 1 ? ntbs(section, afterAttribute, subEnd) : uleb(section, afterAttribute, subEnd);
        tags[attribute] = value;
        a = next;
      }
      sub = subEnd;
    }
    at = end;
  }
  const arch = typeof tags[TAG_RISCV_ARCH] === 'string' ? (tags[TAG_RISCV_ARCH] as string) : null;
  return { ok: true, arch, extensions: arch ? isaExtensions(arch) : [], tags };
}
