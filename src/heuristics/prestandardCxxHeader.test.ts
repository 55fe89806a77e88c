import { afterEach, describe, expect, it } from 'vitest';
import { prestandardCxxHeader } from './prestandardCxxHeader.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const configureFailure = { phase: 'configure' as const, command: './configure --prefix=/usr' };

describe('prestandard-cxx-header', () => {
  it("answers configure's check for <iomanip.h> when no file includes it (id3lib)", async () => {
    const t = heuristicContext(fixture('configure-prestandard-cxx-header'), { failure: configureFailure });
    t.src('include/id3/tag.h', '#include <iomanip>\n#include "id3/globals.h"\n');
    t.src('src/tag.cpp', '#include <iostream.h>\nint x;\n');
    const match = await prestandardCxxHeader.match(t.ctx);
    expect(match?.reason).toBe(
      'configure stops for <iomanip.h>, a C++ header of before 1998 that no file of the tree includes',
    );
    const outcome = await prestandardCxxHeader.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.env).toMatchObject({ ac_cv_header_iomanip_h: 'yes' });
  });

  it('does nothing where the code includes the old header, or another header stopped configure', async () => {
    const t = heuristicContext(fixture('configure-prestandard-cxx-header'), { failure: configureFailure });
    t.src('src/io.cpp', '  #  include <iomanip.h>\n');
    expect(await prestandardCxxHeader.match(t.ctx)).toBeNull();
    const other = heuristicContext(
      'checking for zlib.h... no\nconfigure: error: Missing a vital header file\n',
      { failure: configureFailure },
    );
    expect(await prestandardCxxHeader.match(other.ctx)).toBeNull();
    const built = heuristicContext(fixture('configure-prestandard-cxx-header'), {
      failure: { phase: 'build', command: 'make' },
    });
    expect(await prestandardCxxHeader.match(built.ctx)).toBeNull();
  });
});
