import { describe, expect, it } from 'vitest';
import type { ExecutedCommand, FixAttempt } from '../state/PortState.ts';
import { portState } from '../testing/portStateFixture.ts';
import { replayDoubt } from './replayDoubt.ts';

const ran = (attempt: number, origin: ExecutedCommand['origin'] = 'plan'): ExecutedCommand => ({
  phase: 'build',
  command: 'make',
  exitCode: 0,
  durationMs: 1000,
  attempt,
  origin,
});
const plan = {
  buildSystem: 'make',
  dir: '.',
  phases: [],
  packages: [],
  expectedArtifacts: [],
  origin: 'default' as const,
};
const repair: FixAttempt = {
  at: '2026-12-07T00:00:00Z',
  attempt: 1,
  source: 'heuristic',
  name: 'permissive-old-c',
  description: 'x',
  outcome: 'applied',
};
const TEXT_PATCH = 'diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n';

describe('replayDoubt', () => {
  it('has none for one clean run of the analysis plan, text patches included', () => {
    const clean = portState({
      plan,
      executed: [ran(1), ran(1)],
      patches: [{ name: '0001-debian-x.patch', diff: TEXT_PATCH }],
    });
    expect(replayDoubt(clean)).toEqual([]);
  });

  it('names each doubt: an LLM plan, a repair, several attempts, commands outside the plan, a binary patch', () => {
    const doubtful = portState({
      plan: { ...plan, origin: 'llm' },
      fixAttempts: [repair, { ...repair, name: 'tried', outcome: 'failed' }],
      executed: [ran(1), ran(2), ran(2, 'fix')],
      patches: [
        { name: '0002-icon.patch', diff: 'diff --git a/i.png b/i.png\nGIT binary patch\nliteral 1\n' },
      ],
    });
    expect(replayDoubt(doubtful)).toEqual([
      'the plan came from llm',
      'the build was repaired (heuristic permissive-old-c)',
      'the build ran 2 attempts',
      '1 commands ran outside the plan',
      "patches build.sh's patch may apply differently (0002-icon.patch)",
    ]);
    expect(replayDoubt(portState({ plan, executed: [ran(1)], cachedRecipe: {} }))).toEqual([
      'the build reran a cached recipe',
    ]);
  });
});
