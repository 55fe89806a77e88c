import { afterEach, describe, expect, it } from 'vitest';
import { configureSuggestedSwitch, suggestedSwitches } from './configureSuggestedSwitch.ts';
import { recoveryHeuristics } from './index.ts';
import { runHeuristics } from './runHeuristics.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

/** The help text of a configure script that offers `--disable-man`. */
const CONFIGURE =
  '#! /bin/sh\ncat <<_ACEOF\n  --disable-man           disable manpage installation [enabled]\n_ACEOF\n';

describe('configure-suggested-switch', () => {
  it("reads the switches that leave a part out from configure's error, never the others", () => {
    expect(suggestedSwitches(fixture('configure-suggests-switch'))).toEqual(['--disable-man']);
    expect(
      suggestedSwitches('configure: error: lint not found; try --without-lint, or pass --disable-werror\n'),
    ).toEqual(['--without-lint', '--disable-werror']);
    // a switch in ordinary output, or one that adds something, is not a suggestion
    expect(suggestedSwitches('checking whether to use --disable-man... no\n')).toEqual([]);
    expect(
      suggestedSwitches('configure: error: use --with-ssl=/opt/ssl or --enable-maintainer-mode\n'),
    ).toEqual([]);
  });

  it('configures with the switch when the script offers it (the iprange case)', async () => {
    const { ctx, src } = heuristicContext(fixture('configure-suggests-switch'));
    src('configure', CONFIGURE);
    const match = await configureSuggestedSwitch.match(ctx);
    expect(match?.key).toBe('--disable-man');
    const outcome = await configureSuggestedSwitch.apply(ctx, match ?? { key: '', reason: '' });
    expect(outcome.applied).toBe(true);
    expect(outcome.plan?.phases.find((p) => p.name === 'configure')?.commands).toEqual([
      './configure --prefix=/usr --disable-man',
    ]);
  });

  it('is the first of the registry to take that failure', async () => {
    const { ctx, src } = heuristicContext(fixture('configure-suggests-switch'));
    src('configure', CONFIGURE);
    expect((await runHeuristics(recoveryHeuristics, ctx, {}))?.heuristic).toBe('configure-suggested-switch');
  });

  it('does nothing when the script does not offer the switch it names', async () => {
    const { ctx, src } = heuristicContext(fixture('configure-suggests-switch'));
    src('configure', '#! /bin/sh\necho no switches here\n');
    expect(await configureSuggestedSwitch.match(ctx)).toBeNull();
  });
});
