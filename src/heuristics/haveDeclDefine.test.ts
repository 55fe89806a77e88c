import { afterEach, describe, expect, it } from 'vitest';
import { haveDeclDefine } from './haveDeclDefine.ts';
import { recoveryHeuristics } from './index.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { runHeuristics } from './runHeuristics.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const LIBIBERTY = '/usr/include/libiberty/libiberty.h';
/** The declaration's guard in libiberty-dev's libiberty.h (an excerpt). */
const GUARD = `#if !HAVE_DECL_BASENAME
#if defined (__GNU_LIBRARY__ ) || defined (__linux__) \\
 || defined (__DragonFly__) || defined (HAVE_DECL_BASENAME)
extern char *basename (const char *) ATTRIBUTE_RETURNS_NONNULL ATTRIBUTE_NONNULL(1);
#else
`;
const build = { phase: 'build', command: 'make -j"$(nproc)"', exitCode: 2 };

describe('have-decl-define', () => {
  it("defines HAVE_DECL_BASENAME=1 where libiberty.h's basename clashes with glibc's in C++ (ht)", async () => {
    const t = heuristicContext(fixture('libiberty-basename-clash'), {
      failure: build,
      systemFiles: { [LIBIBERTY]: GUARD },
    });
    const match = await haveDeclDefine.match(t.ctx);
    expect(match).toEqual({
      key: 'HAVE_DECL_BASENAME',
      reason: `${LIBIBERTY} declares basename as the C library does not`,
    });
    const outcome = await haveDeclDefine.apply(
      { ...t.ctx, plan: { ...t.ctx.plan, env: { CPATH: '/usr/include/libiberty', CPPFLAGS: '-DX' } } },
      match as HeuristicMatch,
    );
    expect(outcome).toMatchObject({
      applied: true,
      description: `build with CPPFLAGS including -DHAVE_DECL_BASENAME=1 (${LIBIBERTY} then takes the C library's declaration)`,
      plan: { env: { CPATH: '/usr/include/libiberty', CPPFLAGS: '-DX -DHAVE_DECL_BASENAME=1' } },
    });
    expect(await runHeuristics(recoveryHeuristics, t.ctx, {})).toMatchObject({
      heuristic: 'have-decl-define',
      outcome: { applied: true },
    });
  });

  it('leaves a header without the guard alone, and clashes in the tree', async () => {
    const t = heuristicContext(fixture('libiberty-basename-clash'), {
      failure: build,
      systemFiles: { [LIBIBERTY]: 'extern char *basename (const char *);\n' },
    });
    expect(
      await haveDeclDefine.apply(t.ctx, (await haveDeclDefine.match(t.ctx)) as HeuristicMatch),
    ).toMatchObject({ applied: false });
    const tree = heuristicContext("util.h:3:14: error: conflicting types for 'basename'\n", {
      failure: build,
    });
    expect(await haveDeclDefine.match(tree.ctx)).toBeNull();
  });
});
