/** The debhelper steps that build the package, whose own commands a debian/rules can replace. */
const STEPS = 'dh_auto_configure|dh_auto_build|dh_auto_test|dh_auto_install|dh_autoreconf';
const TARGET = new RegExp(
  `^((?:override|execute_before|execute_after)_(?:${STEPS})(?:-arch|-indep)?)\\s*:`,
  'gm',
);

/**
 * The build steps a debian/rules replaces or extends (`override_dh_auto_configure:`,
 * `execute_before_dh_auto_build:`), in file order: where Debian's own build does more than the
 * build system's defaults (a bundled part built first, code generated, a switch passed), which a
 * port that stops can follow. dh's sequence targets and the packaging-only steps are left out.
 */
export function rulesBuildSteps(rules: string): string[] {
  return [...new Set([...rules.matchAll(TARGET)].map((m) => m[1] ?? ''))].filter(Boolean);
}
