import { describeSubmodule, missingSubmoduleIn } from '../../heuristics/index.ts';
import type { ErrorRecord, PortState } from '../state/PortState.ts';
import { SANDBOX_LIMIT_CATEGORIES } from '../state/vocabulary.ts';
import { severityOf } from './classifyError.ts';

const BARE_METAL = 'the code is bare-metal (freestanding, its own boot code) for another architecture';

/**
 * An error read again with what the port knows of the tree: a file of a submodule the checkout has
 * no content of makes the source incomplete, whatever tool said so (a CMake error, a missing
 * Makefile, a missing header); compile or assembler failures in code the scan found to be
 * bare-metal cannot be fixed for riscv64 Linux, and say so instead of letting the fixer try.
 */
export function classifyInContext(
  state: PortState,
  error: ErrorRecord,
  output: string,
  planDir: string,
): ErrorRecord {
  const submodule =
    state.source.dir && !SANDBOX_LIMIT_CATEGORIES.has(error.category) && error.category !== 'TIMEOUT'
      ? missingSubmoduleIn(state.source.dir, output, planDir)
      : null;
  if (submodule) {
    const evidence = `the submodule ${describeSubmodule(submodule)} has no content in this checkout`;
    return {
      ...error,
      category: 'SOURCE_UNAVAILABLE',
      severity: severityOf('SOURCE_UNAVAILABLE'),
      evidence,
      message: `${evidence}\n${error.message}`,
      signature: error.signature.replace(/^[A-Z_]+:/, 'SOURCE_UNAVAILABLE:'),
    };
  }
  const bareMetal = state.findings.some((f) => f.kind === 'bare-metal' && f.severity === 'high');
  if (bareMetal && ['COMPILATION', 'ARCHITECTURE', 'LINKING'].includes(error.category)) {
    return {
      ...error,
      category: 'REQUIRES_HARDWARE',
      severity: 'critical',
      evidence: BARE_METAL,
      message: `${BARE_METAL}\n${error.message}`,
    };
  }
  return error;
}
