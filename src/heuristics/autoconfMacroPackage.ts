import { installForRepair } from './installForRepair.ts';
import { withPackages } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** Autoconf macros by prefix or name, and the Debian package whose aclocal file defines them. */
const MACRO_PACKAGES: ReadonlyArray<[RegExp, string]> = [
  [/^(LT_SYS_SYMBOL_USCORE|LTDL_\w+|LT_CONFIG_LTDL_DIR|LT_LIB_DLLOAD|LT_FUNC_DLSYM_USCORE)$/, 'libltdl-dev'],
  [/^AX_\w+$/, 'autoconf-archive'],
  [/^(AM_GNU_GETTEXT\w*|AM_ICONV\w*|AC_LIB_\w+|AM_LANGINFO_CODESET)$/, 'gettext'],
  [/^GTK_DOC_\w+$/, 'gtk-doc-tools'],
  [/^IT_PROG_INTLTOOL$/, 'intltool'],
  [/^GOBJECT_INTROSPECTION_\w+$/, 'gobject-introspection'],
  [/^(AM_PATH_GLIB_2_0|GLIB_\w+)$/, 'libglib2.0-dev'],
  [/^XORG_\w+$/, 'xutils-dev'],
  [/^PKG_\w+$/, 'pkgconf'],
];

const UNDEFINED_MACRO = /possibly undefined macro: (\w+)/;

/** `autoreconf` cannot expand a macro: install the package whose aclocal file defines it. */
export const autoconfMacroPackage: RecoveryHeuristic = {
  name: 'install-autoconf-macros',
  description: 'install the package that defines an autoconf macro autoreconf does not know',
  match(ctx) {
    const macro = UNDEFINED_MACRO.exec(ctx.failure.output)?.[1];
    if (!macro) return null;
    const pkg = MACRO_PACKAGES.find(([pattern]) => pattern.test(macro))?.[1];
    return pkg ? { key: pkg, reason: `autoconf macro ${macro} comes from ${pkg}` } : null;
  },
  async apply(ctx, match) {
    const pkg = match.key;
    if (ctx.plan.packages.includes(pkg))
      return { applied: false, description: `${pkg} is already installed`, commands: [] };
    const { command, failed } = await installForRepair(ctx, [pkg], `installing ${pkg} failed`);
    if (failed) return failed;
    return {
      applied: true,
      description: `installed ${pkg} for its autoconf macros`,
      commands: [command],
      plan: withPackages(ctx.plan, [pkg]),
    };
  },
};
