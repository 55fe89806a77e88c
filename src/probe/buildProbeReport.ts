import type { TargetMode } from '../sandbox/index.ts';
import { detectEmulation, type EmulationFacts } from './detectEmulation.ts';
import { parseCpuinfo } from './parseCpuinfo.ts';
import { type HwprobeFacts, parseHelperOutput } from './parseHelperOutput.ts';
import { type IsaString, parseIsaString } from './parseIsaString.ts';
import type { ProbeSections } from './parseProbeSections.ts';

/** Where the probe ran: a local sandbox instance, or a remote machine over SSH. */
export type ProbeTarget = 'local-sandbox' | 'ssh';

export interface ProbeCompiler {
  name: string;
  version: string;
  /** `-dumpmachine`. */
  target: string;
  march: { accepted: string[]; rejected: Array<{ march: string; reason: string }> };
}

export interface ProbeReport {
  target: ProbeTarget;
  mode: TargetMode;
  machine: string;
  kernel: string;
  /**
   * The ISA a build may assume: /proc/cpuinfo's `isa` line, or under qemu-user (whose
   * /proc/cpuinfo is the host's) the extensions qemu was seen to execute (`source` says which).
   */
  isa: (Pick<IsaString, 'string' | 'base' | 'extensions'> & { source: 'cpuinfo' | 'emulator' }) | null;
  /** Newer kernels: the `hart isa` line, when present. */
  hartIsa: Pick<IsaString, 'string' | 'base' | 'extensions'> | null;
  vendorId: string | null;
  archId: string | null;
  implId: string | null;
  uarch: string | null;
  mmu: string | null;
  cores: number | null;
  memoryMb: number | null;
  hwprobe: HwprobeFacts | null;
  /** Why `hwprobe` is null. */
  hwprobeReason: string | null;
  /** AT_HWCAP's single letters. */
  hwcap: string[] | null;
  compilers: ProbeCompiler[];
  emulated: EmulationFacts;
  notes: string[];
}

export interface ProbeContext {
  target: ProbeTarget;
  mode: TargetMode;
  qemuVersion?: string | null;
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0]?.trim() ?? '';
}

function parseMarch(text: string): ProbeCompiler['march'] {
  const accepted: string[] = [];
  const rejected: ProbeCompiler['march']['rejected'] = [];
  for (const line of text.split('\n')) {
    const [verdict, march = '', ...reason] = line.trim().split(' ');
    if (!/^[a-z0-9_]+$/.test(march)) continue;
    if (verdict === 'accepted') accepted.push(march);
    else if (verdict === 'rejected') rejected.push({ march, reason: reason.join(' ') });
  }
  return { accepted, rejected };
}

function slim(isa: IsaString): Pick<IsaString, 'string' | 'base' | 'extensions'> {
  return { string: isa.string, base: isa.base, extensions: isa.extensions };
}

/** Canonical order of single letters, for an ISA string assembled from what qemu executes. */
const LETTER_ORDER = 'imafdqlcbkjtpvh';

function isaFromExtensions(base: string, extensions: readonly string[]): IsaString | null {
  const letters = extensions
    .filter((e) => e.length === 1 && LETTER_ORDER.includes(e))
    .sort((a, b) => LETTER_ORDER.indexOf(a) - LETTER_ORDER.indexOf(b));
  if (!letters.includes('i')) return null;
  const multi = extensions.filter((e) => e.length > 1).sort();
  return parseIsaString([`${base}${letters.join('')}`, ...multi].join('_'));
}

/** Turns the sections of one probe run into the report; pure, so every target shares it. */
export function buildProbeReport(sections: ProbeSections, context: ProbeContext): ProbeReport {
  const machine = firstLine(sections.get('uname-m'));
  const kernel = firstLine(sections.get('uname-r'));
  const cpuinfo = parseCpuinfo(sections.get('cpuinfo') ?? '');
  const helper = parseHelperOutput(sections.get('helper') ?? '');
  const notes = [...helper.notes];
  if (cpuinfo.mixed) notes.push('the harts differ in ISA or uarch; the first one is reported');
  const emulated = detectEmulation({
    machine,
    kernel,
    cpuinfo,
    helper,
    shellExe: firstLine(sections.get('shell-exe')),
    qemuCpu: firstLine(sections.get('qemu-cpu')),
    qemuVersion: context.qemuVersion ?? null,
  });
  const nproc = firstLine(sections.get('nproc'));
  const mem = /^MemTotal:\s+(\d+)\s*kB/i.exec(firstLine(sections.get('meminfo')));
  let isa: ProbeReport['isa'] = null;
  if (cpuinfo.isa) isa = { ...slim(cpuinfo.isa), source: 'cpuinfo' };
  else if (emulated.extensions && machine === 'riscv64') {
    const built = isaFromExtensions('rv64', emulated.extensions);
    if (built) isa = { ...slim(built), source: 'emulator' };
  }
  const compilers: ProbeCompiler[] = [];
  for (const name of ['gcc', 'clang']) {
    if (!sections.has(`compiler:${name}:version`)) continue;
    compilers.push({
      name,
      version: firstLine(sections.get(`compiler:${name}:version`)),
      target: firstLine(sections.get(`compiler:${name}:target`)),
      march: parseMarch(sections.get(`compiler:${name}:march`) ?? ''),
    });
  }
  let hwprobeReason: string | null = null;
  if (!helper.hwprobe) {
    if (helper.unavailable) hwprobeReason = `not available: ${helper.unavailable}`;
    else if (helper.hwprobeError?.errno === 38)
      hwprobeReason = emulated.is
        ? 'not available: the emulator does not implement riscv_hwprobe (ENOSYS)'
        : 'not available: the kernel has no riscv_hwprobe (ENOSYS; it came in Linux 6.4)';
    else if (helper.hwprobeError)
      hwprobeReason = `not available: riscv_hwprobe failed (${helper.hwprobeError.message || `errno ${helper.hwprobeError.errno}`})`;
    else hwprobeReason = 'not available: the probe printed no riscv_hwprobe result';
  }
  return {
    target: context.target,
    mode: context.mode,
    machine,
    kernel,
    isa,
    hartIsa: cpuinfo.hartIsa ? slim(cpuinfo.hartIsa) : null,
    vendorId: cpuinfo.vendorId ?? helper.hwprobe?.vendorId ?? null,
    archId: cpuinfo.archId ?? helper.hwprobe?.archId ?? null,
    implId: cpuinfo.implId ?? helper.hwprobe?.implId ?? null,
    uarch: cpuinfo.uarch,
    mmu: cpuinfo.mmu,
    cores: /^\d+$/.test(nproc) ? Number(nproc) : cpuinfo.harts.length || null,
    memoryMb: mem ? Math.round(Number(mem[1]) / 1024) : null,
    hwprobe: helper.hwprobe,
    hwprobeReason,
    hwcap: helper.hwcap,
    compilers,
    emulated,
    notes,
  };
}
