import type { LlmClient } from '../../llm/index.ts';
import { PortNode } from '../graph/nodeNames.ts';
import { withAudit } from '../graph/nodes/audit.ts';
import { scriptedOf } from '../graph/nodes/scriptedAnalysis.ts';
import type { PortState } from '../state/PortState.ts';
import { deterministicAnalysis } from '../steps/deterministicAnalysis.ts';
import {
  ANALYST_MAX_TOKENS,
  ANALYST_SCHEMA_NAME,
  analystPrompt,
  PackageAnalysisAnswerSchema,
} from './analystPrompt.ts';
import { costCapReason, llmFallbackNote, withLlmUsage } from './llmUsage.ts';
import { mergeAnalysis } from './mergeAnalysis.ts';

/**
 * The analyst's update of the state. Offline: the scripted analysis, exactly as without an LLM
 * layer. Online: the planner's answer merged with the scripted analysis; any other outcome keeps
 * the scripted analysis and says why, and the cost cap escalates. Every call's usage is counted.
 */
export async function analyzePackage(
  state: PortState,
  llm: LlmClient,
  installable: ReadonlySet<string> | null = null,
): Promise<Partial<PortState>> {
  const fallback = deterministicAnalysis(state);
  if (!fallback) return { audit: withAudit(state, PortNode.analyst, 'no scripted analysis') };
  const scriptedNote = `${fallback.buildSystem} (${fallback.confidence.toFixed(2)}), scripted`;
  if (llm.offline)
    return { packageAnalysis: fallback, audit: withAudit(state, PortNode.analyst, 'analysis', scriptedNote) };

  const result = await llm.complete({
    role: 'planner',
    ...analystPrompt(state),
    schema: PackageAnalysisAnswerSchema,
    schemaName: ANALYST_SCHEMA_NAME,
    maxTokens: ANALYST_MAX_TOKENS,
  });
  const totals = withLlmUsage(state.llm, result);
  if (result.outcome === 'cost_cap') {
    const reason = costCapReason(totals, llm.costCapUsd);
    return {
      packageAnalysis: fallback,
      llm: totals,
      buildStatus: 'ESCALATED',
      escalationReason: reason,
      audit: withAudit(state, PortNode.analyst, 'cost cap', reason),
    };
  }
  if (!result.ok || !result.value) {
    return {
      packageAnalysis: fallback,
      llm: totals,
      audit: withAudit(state, PortNode.analyst, 'analysis', `${scriptedNote} (${llmFallbackNote(result)})`),
    };
  }
  const { analysis, rejected } = mergeAnalysis(
    fallback,
    scriptedOf(state),
    result.value,
    state.source.dir,
    installable,
  );
  const detail = `${analysis.buildSystem} in ${analysis.dir} (${analysis.confidence.toFixed(2)}), LLM-grounded${
    analysis.needsCustomPlan ? ', custom plan asked for' : ''
  }${rejected.length ? `; not taken: ${rejected.join('; ')}` : ''}`;
  return {
    packageAnalysis: analysis,
    llm: totals,
    audit: withAudit(state, PortNode.analyst, 'analysis', detail),
  };
}
