import { joinPath } from '../SourceTree.ts';
import { type BuildSystemDetector, PARALLEL } from './BuildSystemDetector.ts';

/**
 * The plan's C flags for the XS code, as debhelper passes them (Debian::Debhelper::Buildsystem::
 * perl_makemaker and perl_build): MakeMaker and Module::Build compile with perl's own flags and
 * never read CFLAGS, so a flag a repair or --optimize puts into CFLAGS goes in as OPTIMIZE, and
 * only when CFLAGS is set (perl's own `-O2 -g` otherwise).
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion
const MAKEFILE_PL_FLAGS = '${CFLAGS:+"OPTIMIZE=$CFLAGS $CPPFLAGS"}';
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion
const BUILD_PL_FLAGS = '${CFLAGS:+--config "optimize=$CFLAGS $CPPFLAGS"}';

/**
 * A Perl distribution: `Makefile.PL` (ExtUtils::MakeMaker) or `Build.PL` (Module::Build), as
 * CPAN and Debian's lib*-perl packages ship them. Its compiled part is the XS code (`.xs`), built
 * into a shared object the riscv64 perl loads; a distribution without XS is Perl alone.
 */
export const perl: BuildSystemDetector = {
  type: 'perl',
  detect(tree, dir) {
    const files = tree.filesIn(dir);
    const script = files.includes('Makefile.PL')
      ? 'Makefile.PL'
      : files.includes('Build.PL')
        ? 'Build.PL'
        : null;
    if (!script) return null;
    const prefix = dir ? `${dir}/` : '';
    const xs = tree.files.some((f) => f.startsWith(prefix) && f.endsWith('.xs'));
    return {
      confidence: 0.7,
      evidence: [joinPath(dir, script)],
      details: { script, xs },
    };
  },
  defaultPlan(candidate) {
    if (candidate.details.script === 'Build.PL')
      return [
        { name: 'configure', commands: [`perl Build.PL --installdirs vendor ${BUILD_PL_FLAGS}`] },
        { name: 'build', commands: ['./Build'] },
        { name: 'test', commands: ['./Build test'] },
        { name: 'install', commands: ['./Build install --destdir "$RVPORT_DESTDIR"'] },
      ];
    return [
      { name: 'configure', commands: [`perl Makefile.PL INSTALLDIRS=vendor ${MAKEFILE_PL_FLAGS}`] },
      { name: 'build', commands: [`make ${PARALLEL}`] },
      { name: 'test', commands: ['make test'] },
      { name: 'install', commands: ['make DESTDIR="$RVPORT_DESTDIR" install'] },
    ];
  },
};
