import type { ArtifactRecord } from '../state/PortState.ts';
import type { ArtifactRankingAnswer } from './curatorPrompt.ts';

export type RankingVerdict = { ok: true; artifacts: ArtifactRecord[] } | { ok: false; problems: string[] };

/**
 * The curator's order applied to the artifacts it was shown, when the answer is a permutation of
 * their paths (none invented, none dropped, none twice) and every role fits the file's ELF facts.
 * Ranks become positions (0 the main artifact); the artifacts not shown follow in rule order.
 */
export function checkArtifactRanking(
  all: readonly ArtifactRecord[],
  shown: readonly ArtifactRecord[],
  answer: ArtifactRankingAnswer,
): RankingVerdict {
  const problems: string[] = [];
  const byPath = new Map(shown.map((a) => [a.path, a]));
  const seen = new Set<string>();
  const ordered: ArtifactRecord[] = [];
  for (const { path, role } of answer.artifacts) {
    const artifact = byPath.get(path);
    if (!artifact) {
      problems.push(`${path} is not one of the given paths`);
      continue;
    }
    if (seen.has(path)) {
      problems.push(`${path} is listed twice`);
      continue;
    }
    seen.add(path);
    if (!roleFits(artifact, role)) problems.push(`${path} cannot be a ${role} (ELF type ${artifact.type})`);
    ordered.push({ ...artifact, role });
  }
  const dropped = shown.filter((a) => !seen.has(a.path)).map((a) => a.path);
  if (dropped.length) problems.push(`left out: ${dropped.join(', ')}`);
  if (problems.length) return { ok: false, problems };
  const rest = all.filter((a) => !byPath.has(a.path));
  return { ok: true, artifacts: [...ordered, ...rest].map((a, rank) => ({ ...a, rank })) };
}

function roleFits(a: ArtifactRecord, role: ArtifactRecord['role']): boolean {
  switch (role) {
    case 'program':
    case 'test':
      return a.type === 'executable' || (a.type === 'shared' && a.interpreter !== null);
    case 'shared-library':
      return a.type === 'shared';
    case 'static-library':
      return a.type === 'archive';
    case 'object':
      return a.type === 'relocatable';
    case 'other':
      return true;
  }
}
