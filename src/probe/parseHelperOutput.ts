/** What the C helper the probe compiles inside the target printed. */
export interface HelperFacts {
  /** Why there is no helper output (no compiler, it did not compile). */
  unavailable: string | null;
  notes: string[];
  /** Single-letter extensions from AT_HWCAP (bit n is letter 'a' + n). */
  hwcap: string[] | null;
  hwprobe: HwprobeFacts | null;
  /** Why riscv_hwprobe gave nothing (`ENOSYS`: the kernel, or the emulator, lacks it). */
  hwprobeError: { errno: number; message: string } | null;
  /** Extension → whether its instruction ran (false: SIGILL). */
  instructions: Record<string, boolean>;
  /** The helper's own executable as a child process sees it: the emulator, under qemu-user. */
  parentExe: string | null;
}

export interface HwprobeFacts {
  vendorId: string | null;
  archId: string | null;
  implId: string | null;
  /** RISCV_HWPROBE_BASE_BEHAVIOR_IMA: the base is rv64ima as the Linux ABI defines it. */
  baseIma: boolean;
  /** Names decoded from RISCV_HWPROBE_KEY_IMA_EXT_0. */
  extensions: string[];
  /** Every key the kernel knew, as hex, by number. */
  raw: Record<string, string>;
}

/** Bit n of RISCV_HWPROBE_KEY_IMA_EXT_0 (Linux's uapi asm/hwprobe.h), as far as this knows them. */
const IMA_EXT_0 = [
  'fd',
  'c',
  'v',
  'zba',
  'zbb',
  'zbs',
  'zicboz',
  'zbc',
  'zbkb',
  'zbkc',
  'zbkx',
  'zknd',
  'zkne',
  'zknh',
  'zksed',
  'zksh',
  'zkt',
  'zvbb',
  'zvbc',
  'zvkb',
  'zvkg',
  'zvkned',
  'zvknha',
  'zvknhb',
  'zvksed',
  'zvksh',
  'zvkt',
  'zfh',
  'zfhmin',
  'zihintntl',
  'zvfh',
  'zvfhmin',
  'zfa',
  'ztso',
  'zacas',
  'zicond',
];

export function decodeImaExt0(value: bigint): string[] {
  const names: string[] = [];
  for (let bit = 0; bit < 64; bit++) {
    if ((value >> BigInt(bit)) & 1n) {
      const name = IMA_EXT_0[bit];
      if (name === 'fd') names.push('f', 'd');
      else names.push(name ?? `ima_ext_0-bit${bit}`);
    }
  }
  return names;
}

export function decodeHwcap(value: bigint): string[] {
  const letters: string[] = [];
  for (let bit = 0; bit < 26; bit++)
    if ((value >> BigInt(bit)) & 1n) letters.push(String.fromCharCode(97 + bit));
  return letters;
}

const HEX = /^0x[0-9a-f]{1,16}$/i;

export function parseHelperOutput(text: string): HelperFacts {
  const facts: HelperFacts = {
    unavailable: null,
    notes: [],
    hwcap: null,
    hwprobe: null,
    hwprobeError: null,
    instructions: {},
    parentExe: null,
  };
  const raw: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ');
    const word = space < 0 ? line : line.slice(0, space);
    const rest = space < 0 ? '' : line.slice(space + 1).trim();
    if (word === 'unavailable') facts.unavailable = rest;
    else if (word === 'note') facts.notes.push(rest);
    else if (word === 'hwcap' && HEX.test(rest)) facts.hwcap = decodeHwcap(BigInt(rest));
    else if (word === 'hwprobe-error') {
      const [errno = '', ...message] = rest.split(' ');
      if (/^\d+$/.test(errno)) facts.hwprobeError = { errno: Number(errno), message: message.join(' ') };
    } else if (word === 'hwprobe') {
      const [key = '', value = ''] = rest.split(' ');
      // a key the kernel does not know comes back as -1
      if (/^\d+$/.test(key) && HEX.test(value)) raw[key] = value.toLowerCase();
    } else if (word === 'insn') {
      const [name = '', result = ''] = rest.split(' ');
      if (/^[a-z0-9]+$/.test(name) && (result === 'ok' || result === 'sigill'))
        facts.instructions[name] = result === 'ok';
    } else if (word === 'parent-exe') facts.parentExe = rest;
  }
  if (Object.keys(raw).length > 0) {
    const base = raw['3'] ? BigInt(raw['3']) : 0n;
    facts.hwprobe = {
      vendorId: raw['0'] ?? null,
      archId: raw['1'] ?? null,
      implId: raw['2'] ?? null,
      baseIma: (base & 1n) === 1n,
      extensions: [
        ...(base & 1n ? ['i', 'm', 'a'] : []),
        ...(raw['4'] ? decodeImaExt0(BigInt(raw['4'])) : []),
      ],
      raw,
    };
  }
  return facts;
}
