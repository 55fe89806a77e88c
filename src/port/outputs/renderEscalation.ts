import type { PortState } from '../state/PortState.ts';
import { recommendation } from '../steps/recommendation.ts';
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
  out.push(recommendation(state));
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
