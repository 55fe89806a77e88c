import { z } from 'zod';
import type { LlmMessage } from '../../llm/index.ts';
import { estimateTokens, ROLE_PROMPT_BUDGETS } from '../../llm/index.ts';
import type { ArtifactRecord, PortState } from '../state/PortState.ts';

export const CURATOR_SCHEMA_NAME = 'artifact_ranking';
export const CURATOR_MAX_TOKENS = 2_000;
export const ARTIFACT_ROLES = [
  'program',
  'shared-library',
  'static-library',
  'object',
  'test',
  'other',
] as const satisfies readonly ArtifactRecord['role'][];

export const ArtifactRankingAnswerSchema = z.strictObject({
  artifacts: z
    .array(z.strictObject({ path: z.string(), role: z.enum(ARTIFACT_ROLES) }))
    .describe('every given path exactly once, most important first'),
});
export type ArtifactRankingAnswer = z.infer<typeof ArtifactRankingAnswerSchema>;

export const CURATOR_SYSTEM = [
  'You rank the build outputs of a package ported to riscv64: the main program or library first,',
  'then what a user installs, then tests, build-tool leftovers and loose objects. You get the list',
  'as rvport ranked it by rules, with the ELF facts of each file. Answer with JSON only.',
  '',
  'Rules (checked; an answer that breaks them is thrown away):',
  '- Return every given path exactly once, spelled exactly as given; add none.',
  '- role is one of program, shared-library, static-library, object, test, other, and must fit',
  '  the ELF facts: program and test are executables (or PIE with an interpreter), shared-library',
  '  is a shared object, static-library an ar archive, object a relocatable file.',
].join('\n');

/**
 * The artifacts the curator is shown: the rule ranking's head, as many as the curator budget holds
 * (the rest keep their rule order after the curated ones).
 */
export function artifactsForCurator(artifacts: readonly ArtifactRecord[]): ArtifactRecord[] {
  const shown: ArtifactRecord[] = [];
  let used = 0;
  for (const a of artifacts) {
    const cost = estimateTokens(artifactLine(a));
    if (used + cost > ROLE_PROMPT_BUDGETS.curator) break;
    shown.push(a);
    used += cost;
  }
  return shown;
}

export function curatorPrompt(
  state: PortState,
  shown: readonly ArtifactRecord[],
): { system: string; messages: LlmMessage[] } {
  const analysis = state.packageAnalysis;
  const purpose = analysis?.notes.find((n) => n.startsWith('purpose: '))?.slice('purpose: '.length);
  const content = [
    `Package: ${state.source.name} (build system ${state.plan?.buildSystem ?? analysis?.buildSystem ?? 'unknown'})`,
    ...(purpose ? [`What it is: ${purpose}`] : []),
    ...(analysis?.expectedArtifacts.length
      ? [`The analyst expected: ${analysis.expectedArtifacts.join(', ')}`]
      : []),
    '',
    `## Build outputs, ranked by rules (${shown.length}${shown.length < state.artifacts.length ? ` of ${state.artifacts.length}` : ''})`,
    'path | role | type | machine | bits | ABI | linkage | interpreter',
    ...shown.map(artifactLine),
  ].join('\n');
  return { system: CURATOR_SYSTEM, messages: [{ role: 'user', content }] };
}

function artifactLine(a: ArtifactRecord): string {
  return [
    a.path,
    a.role,
    a.type,
    a.machine ?? '-',
    a.bits ?? '-',
    a.abi ?? '-',
    a.linkage ?? '-',
    a.interpreter ?? '-',
  ].join(' | ');
}
