import { renderOptimization } from '../../optimize/renderOptimization.ts';
import type { PortState } from '../state/PortState.ts';
import { codeBlock, seconds, table } from './markdown.ts';
import { renderCrateDependencies } from './renderCrateDependencies.ts';
import { renderDebianKnowledge } from './renderDebianKnowledge.ts';
import { renderDelivery } from './renderDelivery.ts';
import { renderDifferential } from './renderDifferential.ts';
import { renderGoModules } from './renderGoModules.ts';

function llmLine(llm: PortState['llm']): string {
  if (llm.calls === 0) return 'no calls';
  const cache = (llm.cacheReadTokens ?? 0) + (llm.cacheWriteTokens ?? 0);
  const total = llm.inputTokens + llm.outputTokens + cache;
  const detail = `${llm.inputTokens} in, ${llm.outputTokens} out${cache ? `, ${llm.cacheReadTokens ?? 0} cache read, ${llm.cacheWriteTokens ?? 0} cache write` : ''}`;
  return `${llm.calls} calls, ${total} tokens (${detail}), $${llm.costUsd.toFixed(4)}`;
}

/** report.md: what happened in a port, for a person reviewing it. */
export function renderReport(state: PortState): string {
  const out: string[] = [];
  const verdict = state.verification?.verdict ?? 'not_verified';
  out.push(`# Port report: ${state.source.name}`);
  out.push('');
  out.push('## Summary');
  out.push('');
  out.push(
    table(
      ['', ''],
      [
        ['source', state.source.spec],
        ['commit', state.source.commit ?? '-'],
        [
          'build system',
          state.plan ? `${state.plan.buildSystem} in ${state.plan.dir} (${state.plan.origin} plan)` : '-',
        ],
        ['status', state.buildStatus],
        ['verification', `${verdict}${state.verification ? `: ${state.verification.reason}` : ''}`],
        ['attempts', `${state.attemptCount} of ${state.options.maxAttempts}`],
        [
          'sandbox mode',
          `${state.options.mode}${state.options.modeReason ? `: ${state.options.modeReason}` : ''}`,
        ],
        ['mode evidence', modeEvidenceLine(state)],
        ['time', seconds(state.timings.total)],
        ['LLM', llmLine(state.llm)],
      ],
    ),
  );
  if (state.escalationReason) {
    out.push('');
    out.push(`Escalated: ${state.escalationReason}`);
  }
  if (state.source.warnings?.length) {
    out.push('', '## Source', '', 'Acquiring the source warned:', '');
    for (const w of state.source.warnings) out.push(`- ${w}`);
  }
  out.push(...renderDebianKnowledge(state.debian));
  out.push(...renderCrateDependencies(state));
  out.push(...renderGoModules(state));
  if (state.errors.length) {
    out.push('');
    out.push('## Errors');
    out.push('');
    out.push(
      table(
        ['#', 'node', 'phase', 'category', 'severity', 'error'],
        state.errors.map((e, i) => [
          i + 1,
          e.node,
          e.phase,
          e.category,
          e.severity,
          // the line that failed, not the last one printed (`A full log can be found at …`)
          (e.errorLine ?? e.evidence ?? e.message.split('\n').filter(Boolean).at(-1))?.slice(0, 160),
        ]),
      ),
    );
  }
  if (state.fixAttempts.length) {
    out.push('');
    out.push('## Fixes tried');
    out.push('');
    out.push(
      table(
        ['attempt', 'source', 'name', 'what', 'patch', 'outcome'],
        state.fixAttempts.map((f) => [
          f.attempt,
          f.source,
          f.name,
          f.description,
          f.patch ? `patches/${f.patch}` : '',
          f.outcome,
        ]),
      ),
    );
  }
  const refused = state.refusedCommands ?? [];
  if (refused.length) {
    out.push('');
    out.push('## Refused LLM commands');
    out.push('');
    out.push('Proposed by the LLM and not run, because they would reach outside the sandbox or change it:');
    out.push('');
    out.push(
      table(
        ['node', 'command', 'reason'],
        refused.map((r) => [r.node, r.command, r.reason]),
      ),
    );
  }
  if (state.findings.length) {
    out.push('');
    out.push('## Architecture findings');
    out.push('');
    out.push(
      table(
        ['severity', 'kind', 'where', 'snippet'],
        state.findings
          .slice(0, 30)
          .map((f) => [
            f.severity,
            f.kind,
            f.line ? `${f.file}:${f.line}` : f.file,
            f.snippet.trim().slice(0, 100),
          ]),
      ),
    );
    if (state.findings.length > 30)
      out.push(`\n… and ${state.findings.length - 30} more (state.json has all).`);
  }
  out.push('');
  out.push('## Artifacts');
  out.push('');
  out.push(
    state.artifacts.length
      ? table(
          ['artifact', 'role', 'machine', 'bits', 'type', 'ABI', 'interpreter'],
          state.artifacts
            .slice(0, 40)
            .map((a) => [a.path, a.role, a.machine, a.bits, a.type, a.abi, a.interpreter]),
        )
      : 'none found',
  );
  out.push(...renderDelivery(state));
  out.push('');
  out.push('## Tests');
  out.push('');
  out.push(
    state.tests
      ? state.tests.ran
        ? `${state.tests.passed} passed, ${state.tests.failed} failed (exit ${state.tests.exitCode})${
            state.tests.cutAt
              ? `; **cut** at the time limit of ${state.tests.cutAt.limitSeconds} s in \`${state.tests.cutAt.command}\` (--test-timeout raises it)`
              : ''
          }\n\n${codeBlock(state.tests.summary)}`
        : `not run: ${state.tests.summary}`
      : 'not run',
  );
  out.push(...renderDifferential(state.differential));
  if (state.replay) {
    out.push('');
    out.push('## Replay');
    out.push('');
    out.push(
      state.replay.replayed === 'skipped'
        ? `Not replayed: ${state.replay.reason}.`
        : `Replayed: **${state.replay.replayed}**: ${state.replay.reason} (${seconds(state.replay.durationMs)}, ${state.replay.mode} mode; replay.md has each artifact).`,
    );
  }
  const phases = Object.entries(state.timings).filter(([k]) => k !== 'total');
  if (phases.length) {
    out.push('');
    out.push('## Time');
    out.push('');
    out.push(
      table(
        ['step', 'time'],
        phases.map(([k, v]) => [k, seconds(v)]),
      ),
    );
  }
  if (state.optimization) out.push(...renderOptimization(state.optimization, table));
  return `${out.join('\n')}\n`;
}

/** What the sandbox mode stood on: the proof table, the build's own evidence, or nothing. */
function modeEvidenceLine(state: PortState): string {
  const e = state.userlandEvidence;
  if (e) {
    const answered = e.answeredByRiscv64?.length
      ? `; answered by riscv64 where x86_64 differs: ${e.answeredByRiscv64.join(', ').replace(/\|/g, '\\|')}`
      : '';
    const counts = `${e.invocations} calls of the swapped programs the rules name, ${e.machineChecked} of ${e.machine} machine-dependent ones answered by riscv64, ${e.sampled} sampled ones run under riscv64 too${e.evidenceSeconds !== undefined ? `, read in ${e.evidenceSeconds} s` : ''}${answered}`;
    return `${e.accepted ? 'accepted' : 'refused'}, the build's own (${counts}): ${e.reason}`;
  }
  if (state.options.modeEvidence === 'proof-table') return 'the committed proof table';
  return state.options.mode === 'native-userland' ? 'none (chosen by hand)' : '-';
}
