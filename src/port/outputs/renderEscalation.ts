import type { PortState } from '../PortState.ts';
import { codeBlock, seconds } from './markdown.ts';

/** escalation.md: what a person needs to take over a port rvport could not finish. */
export function renderEscalation(state: PortState): string {
  const last = state.errors.at(-1);
  const out: string[] = [];
  out.push(`# ${state.source.name}: escalated`);
  out.push('');
  out.push('## Summary');
  out.push('');
  out.push(
    `- source: \`${state.source.spec}\`${state.source.commit ? ` at \`${state.source.commit}\`` : ''}`,
  );
  out.push(`- status: ${state.buildStatus}`);
  out.push(`- attempts: ${state.attemptCount} of ${state.options.maxAttempts}`);
  out.push(`- LLM cost: $${state.llm.costUsd.toFixed(4)} (${state.llm.calls} calls)`);
  out.push(`- duration: ${seconds(state.timings.total)}`);
  out.push('');
  out.push('## Why');
  out.push('');
  out.push(state.escalationReason ?? 'no reason was recorded');
  out.push('');
  out.push('## Last error');
  out.push('');
  if (last) {
    out.push(
      `${last.category} (${last.severity}) in ${last.node}${last.phase ? `, phase ${last.phase}` : ''}${last.command ? `: \`${last.command}\`` : ''}`,
    );
    out.push('');
    out.push(codeBlock(last.message));
  } else {
    out.push('none recorded');
  }
  const fixes = state.fixAttempts.slice(-5);
  if (fixes.length) {
    out.push('');
    out.push('## Last fix attempts');
    out.push('');
    for (const f of fixes)
      out.push(`- attempt ${f.attempt}, ${f.source} \`${f.name}\`: ${f.description} (${f.outcome})`);
  }
  const findings = state.findings.filter((f) => f.severity === 'high').slice(0, 5);
  if (findings.length) {
    out.push('');
    out.push('## Architecture findings');
    out.push('');
    for (const f of findings)
      out.push(
        `- ${f.severity} ${f.kind} at \`${f.file}${f.line ? `:${f.line}` : ''}\`: \`${f.snippet.trim()}\``,
      );
  }
  out.push('');
  out.push('## Recommendation');
  out.push('');
  out.push(recommend(state));
  const errors = state.errors.slice(-5);
  if (errors.length) {
    out.push('');
    out.push('## Last error records');
    out.push('');
    for (const e of errors)
      out.push(
        `- ${e.at} ${e.node}${e.phase ? `/${e.phase}` : ''}: ${e.category}: ${e.errorLine ?? e.message.split('\n').at(-1)}`,
      );
  }
  return `${out.join('\n')}\n`;
}

function recommend(state: PortState): string {
  const category = state.errors.at(-1)?.category;
  switch (category) {
    case 'ARCHITECTURE_IMPOSSIBLE':
      return 'The code has no riscv64 support (for example no backend for the architecture). Porting it means writing that support upstream; a rebuild cannot help.';
    case 'REQUIRES_HARDWARE':
      return 'The code targets specific hardware (for example bare-metal x86). It cannot run as a riscv64 Linux program.';
    case 'LICENSE_INCOMPATIBLE':
      return 'A licence problem blocks the build; a person must decide.';
    case 'PERMISSION':
      return 'The build needs permissions the sandbox does not give (it must not write outside its tree).';
    case 'DISK_SPACE':
      return 'Free disk space in RVPORT_HOME (or give the instance more room) and run the port again; it resumes.';
    case 'NETWORK':
      return 'The build tries to download during the build. Vendor the dependency into the source, or turn off the part that downloads.';
    case 'DEPENDENCY':
    case 'MISSING_TOOLS':
      return 'Install the missing package in the sandbox or name it in a custom plan; with an LLM configured, the scout can plan it.';
    default:
      return state.options.offline
        ? 'The deterministic repairs are exhausted. Configure an LLM provider (see README) so the fixer can propose a fix, or fix the error above by hand and run the port again.'
        : 'The fixer could not repair the error within the attempts. Fix it by hand using the error above, then run the port again.';
  }
}
