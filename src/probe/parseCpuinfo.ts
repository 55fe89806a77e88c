import { type IsaString, parseIsaString } from './parseIsaString.ts';

/** One `processor` block of a riscv64 /proc/cpuinfo. */
export interface CpuinfoHart {
  processor: number;
  hart?: number;
  isa?: string;
  /** Newer kernels: the extensions this hart has, where `isa` is what all harts share. */
  hartIsa?: string;
  mmu?: string;
  uarch?: string;
  mvendorid?: string;
  marchid?: string;
  mimpid?: string;
}

export interface Cpuinfo {
  /** The blocks that have a `processor` line. */
  harts: CpuinfoHart[];
  /** The first hart's values: the ones a build is for (harts of one board agree; see `mixed`). */
  isa: IsaString | null;
  hartIsa: IsaString | null;
  mmu: string | null;
  uarch: string | null;
  vendorId: string | null;
  archId: string | null;
  implId: string | null;
  /** Harts whose `isa`/`hart isa` or uarch differ from the first one (big.LITTLE-like boards). */
  mixed: boolean;
  /** The text looks like another architecture's (qemu-user passes the host's file through). */
  foreign: { vendor: string | null; model: string | null } | null;
}

/** `key : value` lines, key as written (tabs and spaces around the colon vary by kernel). */
function fields(block: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    if (!out.has(key)) out.set(key, line.slice(colon + 1).trim());
  }
  return out;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Parses /proc/cpuinfo as a riscv64 Linux kernel prints it (and recognises when it is not one). */
export function parseCpuinfo(text: string): Cpuinfo {
  const blocks = text.replace(/\r\n/g, '\n').split(/\n\s*\n/);
  const harts: CpuinfoHart[] = [];
  let foreign: Cpuinfo['foreign'] = null;
  for (const block of blocks) {
    const f = fields(block);
    const processor = f.get('processor');
    if (processor === undefined || !/^\d+$/.test(processor)) continue;
    if (f.has('vendor_id') || f.has('flags') || f.has('cpu implementer')) {
      foreign ??= {
        vendor: f.get('vendor_id') ?? f.get('cpu implementer') ?? null,
        model: f.get('model name') ?? null,
      };
    }
    const hart = f.get('hart');
    const entry: CpuinfoHart = { processor: Number(processor) };
    if (hart !== undefined && /^\d+$/.test(hart)) entry.hart = Number(hart);
    const values = {
      isa: nonEmpty(f.get('isa')),
      hartIsa: nonEmpty(f.get('hart isa')),
      mmu: nonEmpty(f.get('mmu')),
      uarch: nonEmpty(f.get('uarch')),
      mvendorid: nonEmpty(f.get('mvendorid')),
      marchid: nonEmpty(f.get('marchid')),
      mimpid: nonEmpty(f.get('mimpid')),
    };
    for (const [key, value] of Object.entries(values)) {
      if (value !== undefined) (entry as unknown as Record<string, string>)[key] = value;
    }
    harts.push(entry);
  }
  const first = harts[0];
  const mixed = harts.some(
    (h) => h.isa !== first?.isa || h.hartIsa !== first?.hartIsa || h.uarch !== first?.uarch,
  );
  return {
    harts,
    isa: first?.isa ? parseIsaString(first.isa) : null,
    hartIsa: first?.hartIsa ? parseIsaString(first.hartIsa) : null,
    mmu: first?.mmu ?? null,
    uarch: first?.uarch ?? null,
    vendorId: first?.mvendorid ?? null,
    archId: first?.marchid ?? null,
    implId: first?.mimpid ?? null,
    mixed,
    foreign,
  };
}
