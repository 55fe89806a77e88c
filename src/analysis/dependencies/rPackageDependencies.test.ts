import { describe, expect, it } from 'vitest';
import { ContentsIndex } from './ContentsIndex.ts';
import { resolveDependencies } from './resolveDependencies.ts';
import { descriptionPackages, rPackageDependencies } from './rPackageDependencies.ts';

const DESCRIPTION = [
  'Package: expint',
  'Version: 0.1-8',
  'Depends: R (>= 3.3.0), stats',
  'Imports: Rcpp (>= 1.0.0),',
  '    data.table',
  'LinkingTo: Rcpp, RcppArmadillo',
  'Suggests: testthat (>= 3.0.0), knitr',
  'License: GPL (>= 2)',
].join('\n');

const file = (exists: (p: string) => boolean) => ({
  path: 'DESCRIPTION',
  text: DESCRIPTION,
  lines: DESCRIPTION.split('\n'),
  exists,
});

describe('rPackageDependencies', () => {
  it('reads the packages of a field across its continuation lines, with their lines', () => {
    expect(descriptionPackages(DESCRIPTION, 'Imports')).toEqual([
      { name: 'Rcpp', line: 4 },
      { name: 'data.table', line: 5 },
    ]);
    expect(descriptionPackages(DESCRIPTION, 'Enhances')).toEqual([]);
  });

  it("needs R, the packages of Depends, Imports and LinkingTo, and testthat when the tests use it; R's own are no dependency", () => {
    const withTestthat = rPackageDependencies.extract(file((p) => p === 'tests/testthat.R'));
    expect(withTestthat.map((d) => [d.name, d.required])).toEqual([
      ['R', true],
      ['Rcpp', true],
      ['data.table', true],
      ['RcppArmadillo', true],
      ['testthat', true],
      ['knitr', false],
    ]);
    const plain = rPackageDependencies.extract(file(() => false));
    expect(plain.find((d) => d.name === 'testthat')?.required).toBe(false);
  });

  it('resolves R packages by their DESCRIPTION in the riscv64 Contents index, and R itself to r-base-dev', () => {
    const contents = ContentsIndex.fromText(
      [
        'usr/lib/R/site-library/Rcpp/DESCRIPTION\tr-cran-rcpp',
        'usr/lib/R/site-library/data.table/DESCRIPTION\tr-cran-data.table',
        'usr/lib/R/library/stats/DESCRIPTION\tr-base-core',
      ].join('\n'),
    );
    const resolved = resolveDependencies(rPackageDependencies.extract(file(() => false)), contents);
    expect(Object.fromEntries(resolved.map((d) => [d.name, d.debianPackages]))).toMatchObject({
      R: ['r-base-dev'],
      Rcpp: ['r-cran-rcpp'],
      'data.table': ['r-cran-data.table'],
      RcppArmadillo: [],
    });
  });
});
