import { joinPath } from '../SourceTree.ts';
import type { BuildSystemDetector } from './BuildSystemDetector.ts';

/** Where the build installs the package: a library folder inside the build folder. */
const LIBRARY = '.rvport-rlib';

/**
 * An R package (CRAN, Bioconductor, and Debian's r-cran-* and r-bioc-* sources): a DESCRIPTION
 * naming the package, beside its NAMESPACE or R/ folder. Its compiled part is `src/` (C, C++,
 * Fortran; `Makevars`, sometimes a configure that R runs itself), built by `R CMD INSTALL` into the
 * shared object the riscv64 R loads. The install's own test load is the first test; the package's
 * `tests/` scripts (testthat or plain R) run against the installed copy.
 */
export const rPackage: BuildSystemDetector = {
  type: 'r',
  detect(tree, dir) {
    const files = tree.filesIn(dir);
    if (!files.includes('DESCRIPTION')) return null;
    const path = joinPath(dir, 'DESCRIPTION');
    const name = /^Package:\s*([A-Za-z][A-Za-z0-9.]*)\s*$/m.exec(tree.read(path) ?? '')?.[1];
    if (!name) return null;
    const prefix = dir ? `${dir}/` : '';
    const isPackage = files.includes('NAMESPACE') || tree.files.some((f) => f.startsWith(`${prefix}R/`));
    if (!isPackage) return null;
    // R CMD check runs the scripts directly in tests/ (testthat.R runs tests/testthat/ itself);
    // a tests/testthat/ folder without such a script is not run by R either
    const tests = tree.filesIn(joinPath(dir, 'tests')).some((f) => /\.[rR]$/.test(f));
    // above autotools: an R package's configure is R CMD INSTALL's to run, not the plan's
    return { confidence: 0.95, evidence: [path], details: { package: name, tests } };
  },
  defaultPlan(candidate) {
    const name = String(candidate.details.package);
    return [
      {
        name: 'build',
        commands: [`mkdir -p ${LIBRARY}`, `R CMD INSTALL --no-multiarch --library="$PWD/${LIBRARY}" .`],
      },
      {
        name: 'test',
        commands: candidate.details.tests
          ? [
              // each script as R CMD check runs it, from tests/, against the installed copy; all run
              `cd tests && passed=0 failed=0 && for f in *.[rR]; do echo "rvport: tests/$f"; if R_LIBS="$PWD/../${LIBRARY}" Rscript --vanilla "$f"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi; done; echo "rvport: R test scripts: $passed passed, $failed failed"; test "$failed" -eq 0`,
            ]
          : [`R_LIBS="$PWD/${LIBRARY}" Rscript --vanilla -e 'library(${name})'`],
      },
      {
        name: 'install',
        commands: [
          'mkdir -p "$RVPORT_DESTDIR/usr/lib/R/site-library"',
          `cp -a ${LIBRARY}/. "$RVPORT_DESTDIR/usr/lib/R/site-library/"`,
        ],
      },
    ];
  },
};
