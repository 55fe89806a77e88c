import { describeRecognized } from '../../analysis/index.ts';
import { type LlmClient, ROLE_PROMPT_BUDGETS } from '../../llm/index.ts';
import { PortNode } from '../graph/nodeNames.ts';
import { withAudit } from '../graph/nodes/audit.ts';
import { makeError, recordError } from '../graph/nodes/recordError.ts';
import { scriptedOf } from '../graph/nodes/scriptedAnalysis.ts';
import type { BuildPlan, PortState } from '../state/PortState.ts';
import { planFromAnalysis } from '../steps/planFromAnalysis.ts';
import { replanSignatureOf } from '../steps/replanSignatures.ts';
import { findFewShotExamples } from './findFewShotExamples.ts';
import { costCapReason, llmFallbackNote, withLlmUsage } from './llmUsage.ts';
import { renderFewShot } from './renderFewShot.ts';
import {
  BuildPlanAnswerSchema,
  SCOUT_BUDGET_SHARES,
  SCOUT_MAX_TOKENS,
  SCOUT_SCHEMA_NAME,
  scoutPrompt,
} from './scoutPrompt.ts';
import { validateScoutPlan } from './validateScoutPlan.ts';

/** Few-shot examples the scout sees at most. */
export const SCOUT_FEW_SHOT_LIMIT = 2;

export interface ScoutContext {
  llm: LlmClient;
  /** RVPORT_HOME, where the few-shot examples are. */
  home: string;
  imageId: string;
  /** What apt in the sandbox can install (null: not checked). */
  installable?: ReadonlySet<string> | null;
}

/**
 * The scout's update of the state. A re-plan after a plan error uses up that error's signature,
 * so each one comes back here only once. Offline: the fallback plan, exactly as without an LLM
 * layer. Online: the scout's plan when it passes `validateScoutPlan`; otherwise (no answer, an
 * invalid one, a refused one) the fallback plan with the reason in the audit; the cost cap
 * escalates. Every call's usage is counted.
 */
export async function planWithScout(state: PortState, context: ScoutContext): Promise<Partial<PortState>> {
  const last = state.errors.at(-1) ?? null;
  const signature = last ? replanSignatureOf(last.message) : null;
  const replansUsed =
    signature && !state.replansUsed.includes(signature)
      ? [...state.replansUsed, signature]
      : state.replansUsed;
  const after = signature ? ` after ${signature}` : '';
  const fallback = planFromAnalysis(state, 'fallback');
  if (context.llm.offline) return withFallback(state, fallback, replansUsed, after, null);

  const buildSystem = state.packageAnalysis?.buildSystem ?? 'unknown';
  const examples = await findFewShotExamples(context.home, {
    imageId: context.imageId,
    buildSystem,
    ...(last ? { errorText: last.message } : {}),
    limit: SCOUT_FEW_SHOT_LIMIT,
  });
  const replanning = last !== null && state.buildStatus === 'FAILED';
  const result = await context.llm.complete({
    role: 'scout',
    ...scoutPrompt({
      state,
      previousPlan: state.plan ?? fallback,
      lastError: replanning ? last : null,
      fewShot: renderFewShot(examples, Math.floor(ROLE_PROMPT_BUDGETS.scout * SCOUT_BUDGET_SHARES.fewShot)),
    }),
    schema: BuildPlanAnswerSchema,
    schemaName: SCOUT_SCHEMA_NAME,
    maxTokens: SCOUT_MAX_TOKENS,
  });
  const llm = withLlmUsage(state.llm, result);
  const counted: PortState = { ...state, llm };
  if (result.outcome === 'cost_cap') {
    const reason = costCapReason(llm, context.llm.costCapUsd);
    return {
      llm,
      replansUsed,
      buildStatus: 'ESCALATED',
      escalationReason: reason,
      audit: withAudit(state, PortNode.scout, 'cost cap', reason),
    };
  }
  if (!result.ok || !result.value)
    return { llm, ...withFallback(counted, fallback, replansUsed, after, llmFallbackNote(result)) };

  const verdict = validateScoutPlan(result.value, {
    sourceRoot: state.source.dir,
    buildSystem,
    installable: context.installable ?? null,
  });
  if (!verdict.ok) {
    const refused: PortState = {
      ...counted,
      audit: withAudit(state, PortNode.scout, 'LLM plan refused', verdict.problems.join('; ')),
    };
    return { llm, ...withFallback(refused, fallback, replansUsed, after, 'LLM plan refused') };
  }
  const plan = verdict.plan;
  return {
    plan,
    llm,
    replansUsed,
    buildStatus: 'PENDING',
    audit: withAudit(
      state,
      PortNode.scout,
      'LLM plan',
      `${plan.buildSystem} in ${plan.dir}${after}${examples.length ? `; examples: ${examples.map((e) => e.package).join(', ')}` : ''}`,
    ),
  };
}

/** The fallback plan, or the escalation when there is none. `why` is null when offline (today's wording). */
function withFallback(
  state: PortState,
  fallback: BuildPlan | null,
  replansUsed: string[],
  after: string,
  why: string | null,
): Partial<PortState> {
  if (!fallback) {
    const error = makeError({
      node: PortNode.scout,
      output: `no build plan: the build system is ${state.packageAnalysis?.buildSystem ?? 'unknown'} and ${
        why === null ? 'no LLM is configured to plan it' : `the LLM scout gave no usable plan (${why})`
      }`,
      category: 'CONFIGURATION',
    });
    return {
      ...recordError(state, error),
      replansUsed,
      buildStatus: 'ESCALATED',
      escalationReason:
        why === null
          ? `no build plan could be made without an LLM (${unplannedTree(state)})`
          : `no build plan could be made: the LLM scout gave no usable plan (${why}) and the build system has no standard plan`,
      audit: withAudit(state, PortNode.scout, 'no plan'),
    };
  }
  return {
    plan: fallback,
    replansUsed,
    buildStatus: 'PENDING',
    audit: withAudit(
      state,
      PortNode.scout,
      'fallback plan',
      `${fallback.buildSystem} in ${fallback.dir}${after}${why ? ` (${why})` : ''}`,
    ),
  };
}

/** What the tree is, when its files say (`the tree is a Raku distribution (META6.json), which …`). */
function unplannedTree(state: PortState): string {
  const recognized = scriptedOf(state)?.recognized;
  return recognized
    ? `${describeRecognized(recognized)}; rvport has no standard plan for it`
    : 'unknown build system';
}
