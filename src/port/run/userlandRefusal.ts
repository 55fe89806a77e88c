import type { ErrorRecord, PortState } from '../state/PortState.ts';
import { FUNDAMENTAL_BLOCKERS, SANDBOX_LIMIT_CATEGORIES } from '../state/vocabulary.ts';

/**
 * Why a native-userland build on its own evidence is redone, or undefined when it stands: a
 * verified build stands on accepted evidence; a failed one stands when no build command made the
 * failure, or when the compiler stopped at an error in a source file after a build whose evidence
 * was accepted (the cross compiler is the same in accelerated mode).
 */
export function userlandRefusal(
  state: Pick<PortState, 'userlandEvidence' | 'verification' | 'errors' | 'llm' | 'options' | 'buildStatus'>,
): string | undefined {
  const evidence = state.userlandEvidence;
  if (evidence && !evidence.accepted) return evidence.reason;
  if (state.verification?.verdict !== 'verified') {
    // a failure of a build command may be the fast userland's: only accelerated mode can say it
    // is the package's. One that no build command made (the source, the LLM's cost cap, a limit
    // of the sandbox, a fundamental blocker) stands: a redo would only pay for it twice.
    const last = state.errors.at(-1);
    const fromBuild =
      last !== undefined &&
      (last.node === 'build' || last.node === 'verify') &&
      !FUNDAMENTAL_BLOCKERS.has(last.category) &&
      !SANDBOX_LIMIT_CATEGORIES.has(last.category) &&
      state.llm.costUsd <= state.options.costCapUsd;
    if (!fromBuild) return undefined;
    // the same cross compiler builds in both modes: its error on a source file, after a build
    // whose every checked program call matched riscv64, is the package's, not the userland's
    if (evidence?.accepted && compilerError(last)) return undefined;
    return `the port ended ${state.buildStatus === 'ESCALATED' || state.buildStatus === 'FAILED' ? 'escalated' : 'without a verified build'} in native-userland mode`;
  }
  if (!evidence) return 'the build left no evidence';
  return undefined;
}

/** `file.c:12:3: error: …` from the compiler, the error the build stopped at. */
const SOURCE_DIAGNOSTIC =
  /^[^\s:]+\.(c|cc|cpp|cxx|c\+\+|C|h|hh|hpp|hxx|i|ii|s|S)(:\d+){1,2}: (fatal )?error: /;

function compilerError(error: Pick<ErrorRecord, 'category' | 'errorLine'>): boolean {
  return error.category === 'COMPILATION' && SOURCE_DIAGNOSTIC.test(error.errorLine ?? '');
}

export function redoReason(reason: string): string {
  return `native-userland mode on the build's own evidence was refused (${reason}); redone in accelerated mode`;
}
