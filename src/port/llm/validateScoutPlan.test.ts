import { describe, expect, it } from 'vitest';
import { buildSystemDetectors } from '../../analysis/buildSystems/index.ts';
import type { BuildPlanAnswer } from './scoutPrompt.ts';
import { validateScoutPlan } from './validateScoutPlan.ts';

describe('validateScoutPlan', () => {
  it.each(buildSystemDetectors.map((d) => [d.type, d] as const))(
    "accepts the standard plan of %s (the scout's rules are the default plans' conventions)",
    (type, detector) => {
      const phases = detector.defaultPlan({
        type,
        confidence: 0.9,
        dir: '.',
        evidence: [],
        details: { bootstrap: 'autoreconf -fi', hasCheck: true },
      });
      const answer: BuildPlanAnswer = {
        build_system: type,
        dir: '.',
        packages: [],
        env: [],
        phases: [
          { name: 'prepare', commands: ['cp /usr/share/misc/config.guess "$RVPORT_SRC/config.guess"'] },
          ...phases,
        ],
        expected_artifacts: [],
        notes: '',
      };
      const verdict = validateScoutPlan(answer, { sourceRoot: undefined, buildSystem: type });
      expect(verdict).toMatchObject({ ok: true });
    },
  );
});
