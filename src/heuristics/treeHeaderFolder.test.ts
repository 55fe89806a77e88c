import { afterEach, describe, expect, it } from 'vitest';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';
import { treeHeaderFolder } from './treeHeaderFolder.ts';

afterEach(removeWorkspaces);

const failure = { phase: 'build', command: 'make -j"$(nproc)"', exitCode: 2 };

describe('tree-header-folder', () => {
  it("adds the one folder of the tree that holds the header to the compiler's search", async () => {
    const t = heuristicContext(fixture('tree-header-other-folder'), { failure });
    t.src('src/settings.h', '#pragma once\n');
    t.src('src/ui/menusystem.cpp', '#include "settings.h"\n');
    t.src('win32/settings.h', '// the Windows build\n');
    const match = (await treeHeaderFolder.match(t.ctx)) as HeuristicMatch;
    expect(match.key).toBe('tree-header:settings.h');
    const outcome = await treeHeaderFolder.apply(t.ctx, match);
    expect(outcome.applied).toBe(true);
    expect(outcome.plan?.env?.CPATH).toBe('/build/src/src');
    // once is enough: the same folder is not added again
    const again = await treeHeaderFolder.apply({ ...t.ctx, plan: outcome.plan ?? t.ctx.plan }, match);
    expect(again.applied).toBe(false);
  });

  it('leaves a header the tree lacks, or has in two folders, alone', async () => {
    const none = heuristicContext(fixture('tree-header-other-folder'), { failure });
    expect(await treeHeaderFolder.match(none.ctx)).toBeNull();

    const two = heuristicContext(fixture('tree-header-other-folder'), { failure });
    two.src('a/settings.h');
    two.src('b/settings.h');
    const match = (await treeHeaderFolder.match(two.ctx)) as HeuristicMatch;
    const outcome = await treeHeaderFolder.apply(two.ctx, match);
    expect(outcome.applied).toBe(false);
    expect(outcome.description).toContain('2 folders');
  });

  it('takes a path with folders as the include wrote it, and refuses one that climbs out', async () => {
    const t = heuristicContext('x.c:1:10: fatal error: guichan/gui.hpp: No such file or directory\n', {
      failure,
    });
    t.src('lib/guichan/gui.hpp');
    const match = (await treeHeaderFolder.match(t.ctx)) as HeuristicMatch;
    expect((await treeHeaderFolder.apply(t.ctx, match)).plan?.env?.CPATH).toBe('/build/src/lib');
    const climbing = heuristicContext('x.c:1:10: fatal error: ../../etc/x.h: No such file or directory\n');
    expect(await treeHeaderFolder.match(climbing.ctx)).toBeNull();
  });
});
