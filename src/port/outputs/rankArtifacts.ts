import type { ElfFacts } from '../../verify/index.ts';
import type { ArtifactRecord } from '../state/PortState.ts';

const TEST_PATH =
  /(^|\/)(tests?|testsuite|t|bench(mark)?s?|examples?|demos?|fuzz(ing)?)(\/|$)|(^|[/_-])(test|bench|example)[^/]*$|[_-]test$/i;
const TOOL_PATH = /(^|\/)(CMakeFiles|\.libs\/.*\.o$|conftest)/;

const ROLE_RANK: Record<ArtifactRecord['role'], number> = {
  program: 0,
  'shared-library': 1,
  'static-library': 2,
  test: 3,
  other: 4,
  object: 5,
};

function roleOf(f: ElfFacts): ArtifactRecord['role'] {
  if (TOOL_PATH.test(f.path)) return 'other';
  if (f.kind === 'archive') return 'static-library';
  if (f.type === 'relocatable') return 'object';
  const isProgram = f.type === 'executable' || (f.type === 'shared' && f.interpreter !== null);
  if (isProgram) return TEST_PATH.test(f.path) ? 'test' : 'program';
  if (f.type === 'shared') return 'shared-library';
  return 'other';
}

/**
 * The rule-based artifact curator: programs first, then shared and static libraries, then test
 * programs, build-tool leftovers and loose objects. Stable and deterministic.
 */
export function rankArtifacts(files: readonly ElfFacts[]): ArtifactRecord[] {
  return files
    .filter((f) => f.kind === 'elf' || f.kind === 'archive')
    .map((f) => {
      const role = roleOf(f);
      const firstMember = f.members?.find((m) => m.kind === 'elf');
      const facts = f.kind === 'archive' && firstMember ? firstMember : f;
      return {
        path: f.path,
        machine: facts.machine,
        bits: facts.bits,
        endian: facts.endian,
        type: f.type,
        abi: facts.abi,
        interpreter: f.interpreter,
        linkage: f.linkage,
        role,
        rank: ROLE_RANK[role],
      };
    })
    .sort(
      (a, b) =>
        a.rank - b.rank ||
        a.path.split('/').length - b.path.split('/').length ||
        a.path.localeCompare(b.path),
    );
}
