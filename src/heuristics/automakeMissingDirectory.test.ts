import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { automakeMissingDirectory } from './automakeMissingDirectory.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const bootstrap = { phase: 'bootstrap', command: 'autoreconf -fi' };

describe('automake-missing-directory', () => {
  it('leaves a documentation folder the release lacks out of SUBDIRS and configure.ac', async () => {
    const t = heuristicContext(fixture('automake-missing-directory'), { failure: bootstrap });
    const match = await automakeMissingDirectory.match(t.ctx);
    expect(match).toEqual({
      key: 'Makefile.am:19:doc',
      reason: 'the release has no doc/, which Makefile.am builds',
    });
    const outcome = await automakeMissingDirectory.apply(t.ctx, match as HeuristicMatch);
    const src = mkdtempSync(join(tmpdir(), 'rvport-automake-'));
    try {
      const am = `${Array.from({ length: 18 }, (_, i) => `# line ${i + 1} mentions doc`).join('\n')}\nSUBDIRS = include libemf doc\n`;
      writeFileSync(join(src, 'Makefile.am'), am);
      writeFileSync(
        join(src, 'configure.ac'),
        'AC_INIT([libEMF], [1.0])\nAC_CONFIG_FILES([Makefile doc/Makefile doc/html/Makefile libemf/Makefile docs/Makefile])\nAC_OUTPUT\n',
      );
      const run = () =>
        execFileSync('sh', ['-c', outcome.commands.join('\n')], { env: { ...process.env, RVPORT_SRC: src } });
      run();
      run();
      const after = readFileSync(join(src, 'Makefile.am'), 'utf8').split('\n');
      expect(after[18]?.trim()).toBe('SUBDIRS = include libemf');
      expect(after[0]).toBe('# line 1 mentions doc'); // only the line automake named
      expect(readFileSync(join(src, 'configure.ac'), 'utf8')).toContain(
        'AC_CONFIG_FILES([Makefile libemf/Makefile docs/Makefile])',
      );
    } finally {
      rmSync(src, { recursive: true, force: true });
    }
    expect(outcome.plan?.phases[0]).toMatchObject({ name: 'prepare', commands: outcome.commands });
  });

  it('does not leave out a code folder, nor follow a path out of the tree', async () => {
    const code = heuristicContext('Makefile.am:3: error: required directory ./libfoo does not exist\n', {
      failure: bootstrap,
    });
    expect(await automakeMissingDirectory.match(code.ctx)).toBeNull();
    const out = heuristicContext('../Makefile.am:3: error: required directory ./doc does not exist\n', {
      failure: bootstrap,
    });
    expect(await automakeMissingDirectory.match(out.ctx)).toBeNull();
    const tests = heuristicContext('sub/Makefile.am:3: error: required directory ./tests does not exist\n', {
      failure: bootstrap,
    });
    expect((await automakeMissingDirectory.match(tests.ctx))?.key).toBe('sub/Makefile.am:3:sub/tests');
  });
  it('leaves out a manual folder below doc/ that the release lacks, named from the top', async () => {
    const t = heuristicContext(fixture('automake-missing-makefile-in'), { failure: bootstrap });
    const match = await automakeMissingDirectory.match(t.ctx);
    expect(match).toEqual({
      key: 'doc/Makefile.am:1:doc/manual',
      reason: 'the release has no doc/manual/, which doc/Makefile.am builds',
    });
    const outcome = await automakeMissingDirectory.apply(t.ctx, match as HeuristicMatch);
    const src = mkdtempSync(join(tmpdir(), 'rvport-automake-'));
    try {
      execFileSync('mkdir', [join(src, 'doc')]);
      writeFileSync(join(src, 'doc', 'Makefile.am'), 'SUBDIRS = manual\n');
      writeFileSync(
        join(src, 'configure.ac'),
        'AC_INIT([t],[1])\nAC_CONFIG_FILES([Makefile src/Makefile doc/Makefile doc/manual/Makefile])\nAC_OUTPUT\n',
      );
      execFileSync('sh', ['-c', outcome.commands.join('\n')], { env: { ...process.env, RVPORT_SRC: src } });
      expect(readFileSync(join(src, 'doc', 'Makefile.am'), 'utf8').trim()).toBe('SUBDIRS =');
      expect(readFileSync(join(src, 'configure.ac'), 'utf8')).toMatch(
        /AC_CONFIG_FILES\(\[Makefile src\/Makefile doc\/Makefile ?\]\)/,
      );
    } finally {
      rmSync(src, { recursive: true, force: true });
    }
  });
});
