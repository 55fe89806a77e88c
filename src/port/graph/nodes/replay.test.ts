import { describe, expect, it } from 'vitest';
import type { ExecutedCommand } from '../../state/PortState.ts';
import { portState } from '../../testing/portStateFixture.ts';
import { lastBuildMs, REPLAY_AUTO_MAX_BUILD_MS, replaySkipReason } from './replay.ts';

const ran = (attempt: number, durationMs: number): ExecutedCommand => ({
  phase: 'build',
  command: 'make',
  exitCode: 0,
  durationMs,
  attempt,
  origin: 'plan',
});
const verified = { verdict: 'verified' as const, reason: 'riscv64 ELF' };
const plan = {
  buildSystem: 'make',
  dir: '.',
  phases: [],
  packages: [],
  expectedArtifacts: [],
  origin: 'default' as const,
};

describe('the replay as the last step of a port', () => {
  it('counts the commands of the last attempt only (the ones build.sh repeats)', () => {
    const state = portState({ executed: [ran(1, 50_000), ran(2, 2_000), ran(2, 3_000)] });
    expect(lastBuildMs(state)).toBe(5_000);
    expect(lastBuildMs(portState({ executed: [] }))).toBe(0);
  });

  it('does not run again by default a build that was one clean run of the recipe', () => {
    const clean = portState({ verification: verified, plan, executed: [ran(1, 60_000)] });
    expect(replaySkipReason(clean)).toMatch(
      /^not needed: the verified build was one run of the recipe's own plan/,
    );
    expect(replaySkipReason({ ...clean, options: { ...clean.options, replay: 'on' } })).toBeNull();
  });

  it('replays a short verified build with doubt by default, and says why it does not otherwise', () => {
    const short = portState({ verification: verified, plan, executed: [ran(1, 60_000), ran(2, 1_000)] });
    expect(replaySkipReason(short)).toBeNull();
    const long = portState({
      verification: verified,
      plan: { ...plan, origin: 'llm' },
      executed: [ran(1, REPLAY_AUTO_MAX_BUILD_MS + 60_000)],
    });
    expect(replaySkipReason(long)).toMatch(/the build took 11 min, longer than the 10 min/);
    expect(replaySkipReason({ ...long, options: { ...long.options, replay: 'on' } })).toBeNull();
    expect(replaySkipReason({ ...short, options: { ...short.options, replay: 'off' } })).toBe(
      'not asked for (--no-replay)',
    );
    expect(replaySkipReason({ ...short, verification: { verdict: 'not_verified', reason: 'x' } })).toBe(
      'the port is not verified',
    );
  });
});
