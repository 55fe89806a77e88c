import type { ErrorCategory, Severity } from '../state/vocabulary.ts';
import { diagnosticLines, type ErrorLine, firstErrorLine } from './firstErrorLine.ts';

interface CategoryRule {
  category: ErrorCategory;
  pattern: RegExp;
}

/**
 * Ordered rules: the first that matches a line of the output decides. A missing header is a
 * dependency even though the compiler reports it; a missing package beats the make error that
 * follows it; anything compiler-shaped that nothing else explains is COMPILATION.
 */
const RULES: readonly CategoryRule[] = [
  { category: 'DISK_SPACE', pattern: /no space left on device|disk quota exceeded|\bENOSPC\b/i },
  { category: 'RATE_LIMIT', pattern: /\b429\b.*too many requests|rate limit exceeded/i },
  {
    category: 'NETWORK',
    pattern:
      /could not resolve host|temporary failure in name resolution|network is unreachable|failed to connect to|unable to access 'https?:|dial tcp|getaddrinfo|name or service not known|could not connect to/i,
  },
  {
    category: 'ARCHITECTURE_IMPOSSIBLE',
    pattern:
      /#error.*(no support for this architecture|unsupported architecture|architecture not supported|not supported on this (architecture|platform)|unknown architecture)|(target|architecture) .*is not supported by this (program|library)|no supported (vectori[sz]ation|simd)( (instruction set|support|found))?\b|configure: error: (unsupported|unknown) (host )?(architecture|cpu)\b[^\n]*riscv|configure: error: [^\n]*riscv\w*[^\n]* (is )?not supported/i,
  },
  {
    // a part of the source the release or the checkout does not have (automake names it)
    category: 'SOURCE_UNAVAILABLE',
    pattern:
      /error: required directory \S+ does not exist|error: required file '[^']+\/Makefile\.in' not found/i,
  },
  {
    category: 'DEPENDENCY',
    pattern:
      /fatal error: [^:]+\.(h|hpp|hh|hxx): no such file or directory|no package '[^']+' found|package '[^']+',? (required by '[^']+', )?not found|could not find (a )?(package|module)|could not find [A-Za-z0-9_]+ \(missing:|run-time dependency .* found: no|dependency "[^"]+" not found|cannot find -l[\w+.-]+|unable to locate package|no matching package named|cannot find package|^configure: \*+ .*\b(requires .* support|please install)\b|^configure: error: .*\b(not found|(is|are) required|please install)\b|package requirements \([^)]*\) were not met|checking for [^\n]*\.\.\. no\s*$/im,
  },
  {
    category: 'MISSING_TOOLS',
    pattern:
      /: (command )?not found\s*$|can't exec "[^"]+"|command '[^']+' not found|program '[^']+' not found|no cmake_\w+_compiler could be found|error: unknown compiler\(s\)|(autoreconf|aclocal|automake|libtoolize|pkg-config|ninja|meson|cmake|scons|help2man|makeinfo|bison|flex|yacc): not found|^[\w+.-]+ must be (installed and )?in (the |your )?\$?path\b|\b[\w+.-]+ is not (installed )?in (the |your )?\$?path\b|^(\S+: )?(error: )?cannot find [a-z][\w+.-]*\s*$|\(find_program\):$|you must have ['"`‘]?[\w+.-]+['"’]? (\([^)\n]*\) )?installed/im,
  },
  {
    category: 'PERMISSION',
    // a build script without its executable bit is a configuration problem (chmod fixes it)
    pattern:
      /^(?!.*\.\/(configure|autogen\.sh|bootstrap|waf)\b).*(operation not permitted|permission denied)/i,
  },
  {
    category: 'LINKING',
    pattern:
      /undefined reference to|relocation truncated to fit|collect2: error|ld(\.bfd|\.gold)?: .*(error|cannot find)|multiple definition of/i,
  },
  {
    category: 'ARCHITECTURE',
    pattern:
      /unrecognized (command[- ]line )?option ['‘]-m(sse|avx|mmx|fpmath|arch=native|tune=native|64|32|no-)|-march=native|unknown (cpu|architecture)|unsupported instruction|unrecognized opcode|invalid operands|impossible constraint in 'asm'|(x86|imm|emm|xmm|pmm|smm|tmm|nmm|wmm)intrin\.h|cpuid\.h|asm operand|error: ['"]?__(x86_64|i386)__/i,
  },
  {
    category: 'CONFIGURATION',
    pattern:
      /configure: error:|cmake error|meson\.build:\d+:\d+: error|invalid configuration `|cannot guess build type|machine `[^']+' not recognized|autoreconf: .*failed|error: possibly undefined macro|no targets specified and no makefile found|\.\/configure: (not found|no such file)|\.\/(configure|autogen\.sh|bootstrap|waf)\b.*permission denied/i,
  },
  {
    category: 'COMPILATION',
    pattern: /:\d+(:\d+)?: (fatal )?error:|error: |\berror\b.*\.o\]|\*\*\* \[.*\] error \d+/i,
  },
];

/** Categories decided by any line of the output, before the first error line is read. */
const OVERRIDING: ReadonlySet<ErrorCategory> = new Set([
  'DISK_SPACE',
  'RATE_LIMIT',
  'NETWORK',
  'ARCHITECTURE_IMPOSSIBLE',
]);

const SEVERITY: Record<ErrorCategory, Severity> = {
  DEPENDENCY: 'medium',
  MISSING_TOOLS: 'medium',
  CONFIGURATION: 'medium',
  COMPILATION: 'high',
  LINKING: 'high',
  ARCHITECTURE: 'high',
  NETWORK: 'high',
  RATE_LIMIT: 'medium',
  PERMISSION: 'critical',
  DISK_SPACE: 'critical',
  MEMORY_LIMIT: 'critical',
  PROCESS_LIMIT: 'critical',
  OUTPUT_LIMIT: 'critical',
  TIMEOUT: 'high',
  LICENSE_INCOMPATIBLE: 'critical',
  REQUIRES_HARDWARE: 'critical',
  ARCHITECTURE_IMPOSSIBLE: 'critical',
  SOURCE_UNAVAILABLE: 'critical',
  UNKNOWN: 'medium',
};

export interface Classification {
  category: ErrorCategory;
  severity: Severity;
  /** The line that decided, or an empty string. */
  evidence: string;
}

/**
 * Sorts a failed command's output into an error category, by rules only. Warnings, notes and
 * the source lines a compiler quotes are not read: their text is the program's own.
 */
export function classifyError(
  output: string,
  facts: {
    timedOut?: boolean;
    /** The output's first error line, when the caller has it. */
    errorLine?: ErrorLine | null;
  } = {},
): Classification {
  if (facts.timedOut)
    return {
      category: 'TIMEOUT',
      severity: SEVERITY.TIMEOUT,
      evidence: 'the command ran past its time limit',
    };
  const lines = diagnosticLines(output);
  // What the machine ran out of, or cannot do at all, wins wherever it is said; then the first
  // real error line decides (an earlier `checking for gawk... no` did not stop the build); then
  // any line of the output, rule by rule.
  const decide = (rule: CategoryRule, candidates: readonly string[]): Classification | null => {
    const line = candidates.find((l) => rule.pattern.test(l));
    return line === undefined
      ? null
      : { category: rule.category, severity: SEVERITY[rule.category], evidence: line.trim() };
  };
  const errorLine = (facts.errorLine !== undefined ? facts.errorLine : firstErrorLine(output))?.text;
  const overriding = RULES.filter((r) => OVERRIDING.has(r.category));
  for (const rule of overriding) {
    const found = decide(rule, lines);
    if (found) return found;
  }
  if (errorLine) {
    for (const rule of RULES) {
      const found = decide(rule, [errorLine]);
      if (found) return found;
    }
  }
  for (const rule of RULES) {
    const found = decide(rule, lines);
    if (found) return found;
  }
  return { category: 'UNKNOWN', severity: SEVERITY.UNKNOWN, evidence: '' };
}

export function severityOf(category: ErrorCategory): Severity {
  return SEVERITY[category];
}
