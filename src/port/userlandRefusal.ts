import type { PortState } from './PortState.ts';
import { FUNDAMENTAL_BLOCKERS, SANDBOX_LIMIT_CATEGORIES } from './vocabulary.ts';

/** Why a native-userland build on its own evidence is redone, or undefined when it stands. */
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
    return `the port ended ${state.buildStatus === 'ESCALATED' || state.buildStatus === 'FAILED' ? 'escalated' : 'without a verified build'} in native-userland mode`;
  }
  if (!evidence) return 'the build left no evidence';
  return undefined;
}

export function redoReason(reason: string): string {
  return `native-userland mode on the build's own evidence was refused (${reason}); redone in accelerated mode`;
}
