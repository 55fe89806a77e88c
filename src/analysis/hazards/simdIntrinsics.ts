import { codeOf, guardedByOtherArch, type HazardRule, matchingLines, snippetOf } from './HazardRule.ts';

const HEADER =
  /#\s*include\s*[<"](x86intrin|immintrin|emmintrin|xmmintrin|pmmintrin|tmmintrin|smmintrin|nmmintrin|wmmintrin|ammintrin|avxintrin|avx2intrin|avx512\w*|mmintrin|cpuid|arm_neon|arm_sve|arm_acle)\.h[>"]/;
const CALL = /\b(_mm(256|512)?_\w+|v(ld|st)[1-4]q?_\w+|vaddq_\w+|vmulq_\w+|__builtin_ia32_\w+)\s*\(/;

/** x86 SSE/AVX and ARM NEON intrinsics: need a guarded scalar path (or RVV) on riscv64. */
export const simdIntrinsics: HazardRule = {
  kind: 'simd-intrinsics',
  description: 'x86 or ARM SIMD intrinsics',
  scanFile(file) {
    if (file.language !== 'c') return [];
    const headers = matchingLines(file, HEADER, 3);
    const calls =
      headers.length > 0 ? [] : matchingLines({ ...file, lines: file.lines.map(codeOf) }, CALL, 1);
    return [...headers, ...calls].map(({ line }) => ({
      kind: 'simd-intrinsics',
      severity: guardedByOtherArch(file.lines, line - 1) ? ('low' as const) : ('medium' as const),
      file: file.path,
      line,
      snippet: snippetOf(file.lines[line - 1] ?? ''),
      message: 'x86/ARM SIMD intrinsics do not exist on riscv64',
      suggestion:
        'make sure the code is guarded by the architecture macro and a portable scalar path is built on riscv64 (or port it to RVV with <riscv_vector.h>)',
    }));
  },
};
