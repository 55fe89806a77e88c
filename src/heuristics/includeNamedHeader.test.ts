import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { headersNamedByGcc, includeNamedHeader } from './includeNamedHeader.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const buildFailure = { phase: 'build' as const, command: 'make' };

describe('include-named-header', () => {
  it('includes in every C++ unit the headers GCC names (id3lib: <cstring>; libmspub: <cstdint>)', async () => {
    const t = heuristicContext(fixture('cxx-header-named-by-gcc'), { failure: buildFailure });
    const match = await includeNamedHeader.match(t.ctx);
    expect(match?.reason).toBe(
      'C++ that uses the standard library without including <cstring> (GCC names the header)',
    );
    const outcome = await includeNamedHeader.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.env).toMatchObject({ CXXFLAGS: '-g -O2 -include cstring' });
    // the fixture's quotes are typographic there, plain here
    expect(headersNamedByGcc(fixture('cxx-missing-cstdint'))).toEqual(['cstdint']);
    // once the plan includes it, the same output names nothing new
    const again = heuristicContext(fixture('cxx-header-named-by-gcc'), {
      failure: buildFailure,
      plan: { ...t.ctx.plan, env: { CXXFLAGS: '-O2 -include cstring' } },
    });
    expect(await includeNamedHeader.match(again.ctx)).toBeNull();
  });

  it('takes only standard library headers from the output', () => {
    const note = (header: string) =>
      `a.cpp:3:1: note: 'x' is defined in header '<${header}>'; this is probably fixable by adding '#include <${header}>'\n`;
    expect(headersNamedByGcc(note('evil') + note('cstdlib') + note('cstdlib'))).toEqual(['cstdlib']);
    expect(headersNamedByGcc(note('../../etc/passwd'))).toEqual([]);
  });

  it('what it does compiles code that forgot <cstring> with the host g++', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-named-header-'));
    try {
      const file = join(dir, 'old.cpp');
      writeFileSync(file, '#include <string>\nunsigned f(const char *s) { return strlen(s); }\n');
      expect(() => execFileSync('g++', ['-c', '-o', join(dir, 'a.o'), file], { stdio: 'pipe' })).toThrow();
      execFileSync('g++', ['-include', 'cstring', '-c', '-o', join(dir, 'b.o'), file], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
