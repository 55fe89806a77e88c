/**
 * Reads the facts of an ELF file that decide whether it is a riscv64 build output. Our own
 * parser (no `file`, no `readelf`): every read is bounds-checked, so a truncated or hostile file
 * yields an `ElfError` value, never an exception.
 */

export type Machine = 'riscv64' | 'riscv32' | 'x86_64' | 'i386' | 'aarch64' | 'arm' | 'other';
export type ElfType = 'relocatable' | 'executable' | 'shared' | 'core' | 'other';
export type Linkage = 'static' | 'dynamic';

export interface ElfInfo {
  ok: true;
  bits: 32 | 64;
  endian: 'little' | 'big';
  /** e_machine as a name; `other` keeps the number in `eMachine`. */
  machine: Machine;
  eMachine: number;
  /** ET_DYN with an interpreter (or DF_1_PIE) is a position-independent executable. */
  type: ElfType;
  pie: boolean;
  /** Executables and shared objects: dynamic (an interpreter, or a library) or static (static PIEs too). */
  linkage: Linkage | null;
  interpreter: string | null;
  /** The calling convention: lp64d, ilp32f… for RISC-V; lp64/ilp32/x32, eabi5-hf… elsewhere. */
  abi: string | null;
  /** RISC-V only: float ABI from e_flags and whether compressed instructions are used. */
  floatAbi: 'soft' | 'single' | 'double' | 'quad' | null;
  rvc: boolean | null;
  eFlags: number;
  osAbi: number;
}

export interface ElfError {
  ok: false;
  /** `not_elf`: no ELF magic; `truncated`: a structure ends past the file; `invalid`: bad field. */
  error: 'not_elf' | 'truncated' | 'invalid';
  reason: string;
  /** What could be read before the problem, when the header itself was readable. */
  partial?: Partial<Omit<ElfInfo, 'ok'>>;
}

export type ElfResult = ElfInfo | ElfError;

const ELF_MAGIC = [0x7f, 0x45, 0x4c, 0x46];
const EM = { I386: 3, ARM: 40, X86_64: 62, AARCH64: 183, RISCV: 243 } as const;
const ET = { REL: 1, EXEC: 2, DYN: 3, CORE: 4 } as const;
const PT = { DYNAMIC: 2, INTERP: 3 } as const;
const DT_NULL = 0;
const DT_FLAGS_1 = 0x6ffffffb;
const DF_1_PIE = 0x08000000;
/** RISC-V e_flags (psABI): RVC bit, float ABI field. */
const EF_RISCV_RVC = 0x1;
const EF_RISCV_FLOAT_ABI_MASK = 0x6;
const EF_RISCV_RVE = 0x8;
const EF_ARM_EABI_MASK = 0xff000000;
const EF_ARM_ABI_FLOAT_HARD = 0x400;
const EF_ARM_ABI_FLOAT_SOFT = 0x200;
/** A sane ceiling so a hostile e_phnum cannot make us loop for long. */
const MAX_PROGRAM_HEADERS = 4096;
const MAX_INTERPRETER_BYTES = 4096;

export function hasElfMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && ELF_MAGIC.every((b, i) => bytes[i] === b);
}

class OutOfBounds extends Error {}

/** A little/big-endian reader over a buffer that throws `OutOfBounds` (caught below) on overrun. */
class Reader {
  private readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    private readonly little: boolean,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private check(offset: number, size: number): void {
    if (!Number.isSafeInteger(offset) || offset < 0 || offset + size > this.bytes.length) {
      throw new OutOfBounds(
        `read of ${size} bytes at offset ${offset} is past the end (${this.bytes.length})`,
      );
    }
  }
  u16(offset: number): number {
    this.check(offset, 2);
    return this.view.getUint16(offset, this.little);
  }
  u32(offset: number): number {
    this.check(offset, 4);
    return this.view.getUint32(offset, this.little);
  }
  /** 64-bit fields as numbers; values beyond 2^53 are not offsets we could read anyway. */
  u64(offset: number): number {
    this.check(offset, 8);
    const value = this.view.getBigUint64(offset, this.little);
    return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
  }
  i64(offset: number): bigint {
    this.check(offset, 8);
    return this.view.getBigInt64(offset, this.little);
  }
  slice(offset: number, size: number): Uint8Array {
    this.check(offset, size);
    return this.bytes.subarray(offset, offset + size);
  }
}

export function machineName(eMachine: number, bits: 32 | 64): Machine {
  switch (eMachine) {
    case EM.RISCV:
      return bits === 64 ? 'riscv64' : 'riscv32';
    case EM.X86_64:
      return 'x86_64';
    case EM.I386:
      return 'i386';
    case EM.AARCH64:
      return 'aarch64';
    case EM.ARM:
      return 'arm';
    default:
      return 'other';
  }
}

function riscvAbi(
  bits: 32 | 64,
  eFlags: number,
): { abi: string; floatAbi: ElfInfo['floatAbi']; rvc: boolean } {
  const floatAbi =
    (['soft', 'single', 'double', 'quad'] as const)[(eFlags & EF_RISCV_FLOAT_ABI_MASK) >> 1] ?? 'soft';
  const suffix = { soft: '', single: 'f', double: 'd', quad: 'q' }[floatAbi];
  const base = bits === 64 ? 'lp64' : eFlags & EF_RISCV_RVE ? 'ilp32e' : 'ilp32';
  return { abi: `${base}${suffix}`, floatAbi, rvc: (eFlags & EF_RISCV_RVC) !== 0 };
}

function otherAbi(machine: Machine, bits: 32 | 64, eFlags: number): string | null {
  switch (machine) {
    case 'x86_64':
      return bits === 64 ? 'lp64' : 'x32';
    case 'aarch64':
      return bits === 64 ? 'lp64' : 'ilp32';
    case 'i386':
      return 'ilp32';
    case 'arm': {
      const eabi = (eFlags & EF_ARM_EABI_MASK) >>> 24;
      const float = eFlags & EF_ARM_ABI_FLOAT_HARD ? '-hf' : eFlags & EF_ARM_ABI_FLOAT_SOFT ? '-sf' : '';
      return eabi ? `eabi${eabi}${float}` : 'oabi';
    }
    default:
      return null;
  }
}

function elfType(eType: number): ElfType {
  switch (eType) {
    case ET.REL:
      return 'relocatable';
    case ET.EXEC:
      return 'executable';
    case ET.DYN:
      return 'shared';
    case ET.CORE:
      return 'core';
    default:
      return 'other';
  }
}

/** Parses an ELF image held in memory. Never throws. */
export function readElf(bytes: Uint8Array): ElfResult {
  if (bytes.length < 4 || !hasElfMagic(bytes)) {
    return { ok: false, error: 'not_elf', reason: 'no ELF magic number (not an ELF file)' };
  }
  if (bytes.length < 16) {
    return { ok: false, error: 'truncated', reason: `truncated ELF identification (${bytes.length} bytes)` };
  }
  const eiClass = bytes[4];
  const eiData = bytes[5];
  if (eiClass !== 1 && eiClass !== 2) {
    return { ok: false, error: 'invalid', reason: `invalid ELF class ${eiClass}` };
  }
  if (eiData !== 1 && eiData !== 2) {
    return { ok: false, error: 'invalid', reason: `invalid ELF data encoding ${eiData}` };
  }
  const bits = eiClass === 2 ? 64 : 32;
  const endian = eiData === 1 ? 'little' : 'big';
  const headerSize = bits === 64 ? 64 : 52;
  if (bytes.length < headerSize) {
    return {
      ok: false,
      error: 'truncated',
      reason: `truncated ELF header (${bytes.length} of ${headerSize} bytes)`,
      partial: { bits, endian },
    };
  }
  const r = new Reader(bytes, endian === 'little');
  const eType = r.u16(16);
  const eMachine = r.u16(18);
  const eFlags = bits === 64 ? r.u32(48) : r.u32(36);
  const machine = machineName(eMachine, bits);
  const riscv = eMachine === EM.RISCV ? riscvAbi(bits, eFlags) : null;
  const header = {
    bits,
    endian,
    machine,
    eMachine,
    type: elfType(eType),
    eFlags,
    osAbi: bytes[7] ?? 0,
    abi: riscv ? riscv.abi : otherAbi(machine, bits, eFlags),
    floatAbi: riscv?.floatAbi ?? null,
    rvc: riscv?.rvc ?? null,
  } as const;

  try {
    const program = readProgramHeaders(r, bits);
    const executableLike = header.type === 'executable' || header.type === 'shared';
    const pie = header.type === 'shared' && (program.interpreter !== null || program.flags1Pie);
    return {
      ok: true,
      ...header,
      type: pie ? 'executable' : header.type,
      pie,
      // a static PIE has a dynamic section (for its own relocations) but no interpreter
      linkage: executableLike
        ? program.interpreter !== null || (program.dynamic && !pie)
          ? 'dynamic'
          : 'static'
        : null,
      interpreter: program.interpreter,
    };
  } catch (error) {
    if (error instanceof OutOfBounds) {
      return {
        ok: false,
        error: 'truncated',
        reason: `truncated ELF file: ${error.message}`,
        partial: header,
      };
    }
    if (error instanceof InvalidElf) {
      return { ok: false, error: 'invalid', reason: error.message, partial: header };
    }
    return { ok: false, error: 'invalid', reason: `unreadable ELF file: ${String(error)}`, partial: header };
  }
}

class InvalidElf extends Error {}

interface ProgramFacts {
  interpreter: string | null;
  dynamic: boolean;
  flags1Pie: boolean;
}

function readProgramHeaders(r: Reader, bits: 32 | 64): ProgramFacts {
  const phoff = bits === 64 ? r.u64(32) : r.u32(28);
  const phentsize = bits === 64 ? r.u16(54) : r.u16(42);
  const phnum = bits === 64 ? r.u16(56) : r.u16(44);
  const facts: ProgramFacts = { interpreter: null, dynamic: false, flags1Pie: false };
  if (phnum === 0 || phoff === 0) return facts;
  const minEntry = bits === 64 ? 56 : 32;
  if (phentsize < minEntry) throw new InvalidElf(`invalid program header entry size ${phentsize}`);
  if (phnum > MAX_PROGRAM_HEADERS) throw new InvalidElf(`implausible program header count ${phnum}`);
  r.slice(phoff, phentsize * phnum); // the whole table must be inside the file
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    const pType = r.u32(at);
    const offset = bits === 64 ? r.u64(at + 8) : r.u32(at + 4);
    const fileSize = bits === 64 ? r.u64(at + 32) : r.u32(at + 16);
    if (pType === PT.INTERP) {
      if (fileSize > MAX_INTERPRETER_BYTES)
        throw new InvalidElf(`implausible interpreter length ${fileSize}`);
      facts.interpreter = cString(r.slice(offset, fileSize));
    } else if (pType === PT.DYNAMIC) {
      facts.dynamic = true;
      facts.flags1Pie = dynamicHasPieFlag(r, bits, offset, fileSize);
    }
  }
  return facts;
}

function dynamicHasPieFlag(r: Reader, bits: 32 | 64, offset: number, size: number): boolean {
  const entry = bits === 64 ? 16 : 8;
  const end = Math.min(offset + size, r.bytes.length);
  for (let at = offset; at + entry <= end; at += entry) {
    const tag = bits === 64 ? Number(r.i64(at)) : r.u32(at);
    if (tag === DT_NULL) break;
    if (tag === DT_FLAGS_1) {
      const value = bits === 64 ? r.u64(at + 8) : r.u32(at + 4);
      return (value & DF_1_PIE) !== 0;
    }
  }
  return false;
}

function cString(bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  return new TextDecoder('utf-8', { fatal: false }).decode(nul === -1 ? bytes : bytes.subarray(0, nul));
}
