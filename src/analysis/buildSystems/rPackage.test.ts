import { describe, expect, it } from 'vitest';
import { SourceTree } from '../SourceTree.ts';
import { rPackage } from './rPackage.ts';

describe('R package detector', () => {
  it('finds a DESCRIPTION beside a NAMESPACE or R/ folder, with the package name and whether it has tests', () => {
    const tree = SourceTree.fromFiles({
      DESCRIPTION: 'Package: expint\nVersion: 0.1-8\nNeedsCompilation: yes\n',
      NAMESPACE: 'useDynLib(expint)\n',
      'src/expint.c': '#include <R.h>\n',
      'tests/expint-tests.R': 'library(expint)\n',
    });
    const found = rPackage.detect(tree, '');
    expect(found).toMatchObject({ evidence: ['DESCRIPTION'], details: { package: 'expint', tests: true } });
    const plan = rPackage.defaultPlan({
      type: 'r',
      dir: '.',
      confidence: 0.95,
      evidence: [],
      details: found?.details ?? {},
    });
    expect(plan.map((p) => p.name)).toEqual(['build', 'test', 'install']);
    expect(plan[0]?.commands).toContain('R CMD INSTALL --no-multiarch --library="$PWD/.rvport-rlib" .');
    expect(plan[1]?.commands[0]).toMatch(/^cd tests && .*Rscript --vanilla "\$f"/);
    // no tests/: loading the installed package is the test
    const untested = rPackage.defaultPlan({
      type: 'r',
      dir: '.',
      confidence: 0.95,
      evidence: [],
      details: { package: 'expint', tests: false },
    });
    expect(untested[1]?.commands).toEqual([
      `R_LIBS="$PWD/.rvport-rlib" Rscript --vanilla -e 'library(expint)'`,
    ]);
  });

  it('has tests only where R CMD check finds a script directly in tests/', () => {
    const files = { DESCRIPTION: 'Package: p\n', NAMESPACE: '\n' };
    const tests = (more: Record<string, string>) =>
      rPackage.detect(SourceTree.fromFiles({ ...files, ...more }), '')?.details?.tests;
    // testthat's own files with no tests/testthat.R to run them: R runs none
    expect(tests({ 'tests/testthat/test-a.R': 'test_that("a", {})\n' })).toBe(false);
    expect(tests({ 'tests/testthat.R': 'library(testthat)\n', 'tests/testthat/test-a.R': '\n' })).toBe(true);
    expect(tests({ 'tests/run.r': '\n' })).toBe(true);
  });

  it('is not a Debian control file or another DESCRIPTION', () => {
    expect(
      rPackage.detect(SourceTree.fromFiles({ DESCRIPTION: 'A program that does things.\n' }), ''),
    ).toBeNull();
    // a DESCRIPTION with a Package field but nothing of an R package beside it
    expect(
      rPackage.detect(SourceTree.fromFiles({ DESCRIPTION: 'Package: foo\n', 'foo.c': '' }), ''),
    ).toBeNull();
  });
});
