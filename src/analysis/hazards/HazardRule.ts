import type { SourceTree } from '../SourceTree.ts';

export type Severity = 'info' | 'low' | 'medium' | 'high';
export const SEVERITY_RANK: Record<Severity, number> = { info: 0, low: 1, medium: 2, high: 3 };

/** One thing that may break on riscv64, where it is and what to do about it. */
export interface Finding {
  kind: string;
  severity: Severity;
  /** Relative to the source root. */
  file: string;
  /** 1-based; null when the whole file is the finding (an assembly source, a helper script). */
  line: number | null;
  snippet: string;
  message: string;
  suggestion: string;
}

/** A file prepared once for every rule: its text and its lines. */
export interface ScannedFile {
  path: string;
  text: string;
  lines: readonly string[];
  /** c (C/C++ sources and headers), asm, build (build scripts and makefiles). */
  language: 'c' | 'asm' | 'build';
}

/**
 * One architecture hazard. `scanFile` sees each source or build file; `scanTree` looks at the
 * tree as a whole (file names, helper scripts).
 */
export interface HazardRule {
  kind: string;
  description: string;
  scanFile?(file: ScannedFile): Finding[];
  scanTree?(tree: SourceTree): Finding[];
}

/** Keeps a snippet readable in a terminal and in JSON. */
export function snippetOf(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > 160 ? `${trimmed.slice(0, 157)}...` : trimmed;
}

/** Every line (1-based) matching `pattern`, at most `limit` of them. */
export function matchingLines(
  file: ScannedFile,
  pattern: RegExp,
  limit = 5,
): { line: number; text: string }[] {
  const hits: { line: number; text: string }[] = [];
  for (let i = 0; i < file.lines.length && hits.length < limit; i++) {
    const text = file.lines[i] ?? '';
    if (pattern.test(text)) hits.push({ line: i + 1, text });
  }
  return hits;
}

/** Architecture names as they appear in macros, triplets and build scripts, by family. */
export const ARCH_FAMILIES: Record<string, RegExp> = {
  x86: /\b(\w*_(?:x86|x64|i386|i686|amd64|ia32)(?:_\w*)?|__SSE\w*__|__AVX\w*__|__MMX__|__x86_64__|__x86_64|__amd64__|__amd64|__i386__|__i386|_M_X64|_M_IX86|_M_AMD64|x86_64|x86-64|amd64|i[3-6]86|x86)\b/i,
  arm: /\b(\w*_(?:arm|arm32|arm64|aarch64|neon|thumb)(?:_\w*)?|__ARM_NEON\w*|__ARM_FEATURE_\w+|__arm__|__aarch64__|__arm64__|_M_ARM64|_M_ARM|__ARM_ARCH\w*|aarch64|arm64|armv\d\w*|armhf|armel|arm)\b/i,
  ppc: /\b(\w*_(?:ppc|ppc64|powerpc|altivec)(?:_\w*)?|__powerpc__|__powerpc64__|__ppc__|__ppc64__|__PPC__|__PPC64__|_ARCH_PPC\w*|powerpc\w*|ppc64\w*|ppc)\b/i,
  mips: /\b(\w*_(?:mips|mips32|mips64)(?:_\w*)?|__mips__|__mips64|__mips|mips64\w*|mips\w*)\b/i,
  s390: /\b(__s390x__|__s390__|s390x?)\b/i,
  sparc: /\b(__sparc__|__sparc|sparc\w*)\b/i,
  loongarch: /\b(__loongarch\w*|loongarch\w*)\b/i,
};
export const RISCV = /riscv|__riscv\b|rv64|rv32/i;

/** The architecture families a line mentions. */
export function archFamiliesIn(line: string): string[] {
  return Object.entries(ARCH_FAMILIES)
    .filter(([, pattern]) => pattern.test(line))
    .map(([family]) => family);
}

/** Strips `//` and `/* … *\/` comments from one line, roughly (enough for scanning). */
export function codeOf(line: string): string {
  return line.replace(/\/\*.*?\*\//g, '').replace(/\/\/.*$/, '');
}

const DIRECTIVE = /^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b/;
/** How far back the enclosing conditional is looked for. */
const MAX_BLOCK_LOOKBACK = 3000;

/**
 * The directives of the innermost preprocessor block around line `index` (0-based): its
 * `#if`/`#ifdef` and the `#elif`/`#else` before the line. Empty when the line is unconditional.
 */
export function enclosingBlock(lines: readonly string[], index: number): string[] {
  const block: string[] = [];
  let depth = 0;
  for (let i = index - 1; i >= 0 && i >= index - MAX_BLOCK_LOOKBACK; i--) {
    const line = lines[i] ?? '';
    const directive = DIRECTIVE.exec(line)?.[1];
    if (!directive) continue;
    if (directive === 'endif') depth++;
    else if (directive === 'if' || directive === 'ifdef' || directive === 'ifndef') {
      if (depth === 0) {
        block.unshift(line);
        return block;
      }
      depth--;
    } else if (depth === 0) block.unshift(line);
  }
  return block;
}

/** True when the line sits in a block chosen by another architecture's macro (so riscv64 skips it). */
export function guardedByOtherArch(lines: readonly string[], index: number): boolean {
  const block = enclosingBlock(lines, index);
  const current = block[block.length - 1] ?? '';
  return !/#\s*else\b/.test(current) && archFamiliesIn(current).length > 0 && !RISCV.test(current);
}

const PATH_ARCH_TOKENS = new Set([
  'x86',
  'x64',
  'i386',
  'i486',
  'i586',
  'i686',
  'ia32',
  'amd64',
  'sse',
  'sse2',
  'sse3',
  'ssse3',
  'sse4',
  'sse41',
  'sse42',
  'avx',
  'avx2',
  'avx512',
  'mmx',
  'arm',
  'arm32',
  'arm64',
  'armv7',
  'armv8',
  'aarch64',
  'neon',
  'mips',
  'mips32',
  'mips64',
  'ppc',
  'ppc64',
  'powerpc',
  'altivec',
  'vsx',
  's390',
  's390x',
  'sparc',
  'sparc64',
  'loongarch',
  'loongarch64',
  'alpha',
  'hppa',
  'ia64',
  'm68k',
  'sh4',
]);

/** Operating systems other than Linux: their sources are not built for riscv64 Linux. */
const PATH_OS_TOKENS = new Set([
  'win32',
  'win64',
  'windows',
  'mingw',
  'msvc',
  'cygwin',
  'macosx',
  'macos',
  'darwin',
  'apple',
  'ios',
  'freebsd',
  'openbsd',
  'netbsd',
  'solaris',
  'android',
  'haiku',
  'os2',
  'dos',
  'vms',
  'symbian',
  'wince',
]);

/** `archOfPath`, or the non-Linux OS a file is for (`windows/getopt.c`, `…Apple.c`). */
export function foreignTargetOfPath(path: string): string | null {
  const arch = archOfPath(path);
  if (arch) return arch;
  const tokens = path
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return tokens.find((t) => PATH_OS_TOKENS.has(t)) ?? null;
}

/**
 * The architecture a file is written for, from its path (`lj_emit_x86.h`, `sljitNativeARM_32.c`,
 * `arch/aarch64/…`), or null. Such files are only built for that architecture.
 */
export function archOfPath(path: string): string | null {
  const tokens = path
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  for (const token of tokens) {
    if (PATH_ARCH_TOKENS.has(token)) return token;
    const prefix = /^(x86|x64|i[3-6]86|amd64|arm64|aarch64|sse[0-9]*|avx[0-9]*|mips64|ppc64|s390x)/.exec(
      token,
    )?.[1];
    if (prefix) return prefix;
  }
  return null;
}
