import { afterEach, describe, expect, it } from 'vitest';
import { installForRepair } from './installForRepair.ts';
import { heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

describe('installForRepair', () => {
  it('installs the packages and gives the apt-get line the recipe shows', async () => {
    const { ctx, installed } = heuristicContext('');
    const done = await installForRepair(ctx, ['libfoo-dev', 'bar'], 'installing failed');
    expect(installed).toEqual([['libfoo-dev', 'bar']]);
    expect(done).toEqual({ command: 'apt-get install -y --no-install-recommends libfoo-dev bar' });
  });

  it("turns a failed install into a repair not applied, with apt's last line", async () => {
    const { ctx } = heuristicContext('', { installExitCode: 100 });
    const done = await installForRepair(ctx, ['libfoo-dev'], 'installing libfoo-dev failed');
    expect(done.failed).toEqual({
      applied: false,
      description: 'installing libfoo-dev failed: E: Unable to locate package',
      commands: ['apt-get install -y --no-install-recommends libfoo-dev'],
    });
  });
});
