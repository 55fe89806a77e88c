import type { ElfFacts } from '../../verify/index.ts';
import { rankArtifacts } from '../outputs/rankArtifacts.ts';
import type { ArtifactRecord } from '../state/PortState.ts';

/** The ELF facts a replayed artifact must share with the port's (its name is the path). */
const FACTS = ['machine', 'bits', 'endian', 'type', 'abi', 'interpreter', 'linkage'] as const;

export interface ArtifactComparison {
  path: string;
  role: ArtifactRecord['role'];
  found: boolean;
  /** The facts that differ, as `field: port → replay`; empty when they all match. */
  differences: string[];
  /** Same bytes as the port's copy in artifacts/; null when the port kept no copy. */
  identical: boolean | null;
}

/**
 * One artifact of the port against the replay's file of the same name: missing, different ELF
 * facts, or the same (and then whether the bytes are too; a build that embeds times or paths
 * differs there and is still the same artifact).
 */
export function compareArtifact(
  port: ArtifactRecord,
  replay: ElfFacts,
  /** SHA-256 of the port's copy and of the replay's file; null when there is none. */
  digests: { port: string | null; replay: string | null },
): ArtifactComparison {
  const base = { path: port.path, role: port.role };
  // the verify node's own mapping from facts to a record (an archive's facts are its members')
  const record = rankArtifacts([replay])[0];
  if (!record || digests.replay === null)
    return {
      ...base,
      found: false,
      differences: [replay.error ?? `not an ELF object (${replay.kind})`],
      identical: null,
    };
  const differences: string[] = [];
  for (const field of FACTS) {
    const want = port[field] ?? null;
    const got = record[field] ?? null;
    if (want !== got) differences.push(`${field}: ${String(want)} → ${String(got)}`);
  }
  return {
    ...base,
    found: true,
    differences,
    identical: digests.port === null ? null : digests.port === digests.replay,
  };
}

/** Whether every compared artifact is there with the port's facts (and there was one to compare). */
export function artifactsMatch(comparisons: readonly ArtifactComparison[]): boolean {
  return comparisons.length > 0 && comparisons.every((c) => c.found && c.differences.length === 0);
}
