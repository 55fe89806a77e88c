import { mapCommands } from './planEdits.ts';
import type { HeuristicContext, RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { readTreeFile } from './readTreeFile.ts';

/** The build's own words: mm-common's projects (glibmm, atkmm, pangomm, gtkmm) say them. */
const ASKS = /you must enable maintainer[- ]mode/i;
const MESON_SETUP = /^meson setup(\s|$)/;
const MESON_OPTION_FILES = ['meson.options', 'meson_options.txt'];
/** `option('maintainer-mode', …)` and, whether it follows it, `option('build-documentation', …)`. */
const optionNamed = (name: string) => new RegExp(`option\\(\\s*'${name}'`);
const DOCS_FOLLOW = /option\(\s*'build-documentation'[^)]*value:\s*'if-maintainer-mode'/s;

interface MesonOptions {
  file: string;
  /** Documentation defaults to being built when maintainer mode is on (doxygen and more). */
  docsFollow: boolean;
}

/**
 * A release tarball without the sources its project generates in maintainer mode (mm-common's C++
 * bindings ship `untracked/` from meson dist; meson stops: "Missing files in untracked/. You must
 * enable maintainer-mode."): meson is set up with `-Dmaintainer-mode=true`, which generates them
 * (gmmproc from the Build-Depends), and with the documentation that follows maintainer mode by
 * default left out, since it needs doxygen and is not what a port is about.
 */
export const enableMaintainerMode: RecoveryHeuristic = {
  name: 'enable-maintainer-mode',
  description:
    'set meson up with -Dmaintainer-mode=true when the project says it must be, to generate what the release lacks',
  async match(ctx) {
    if (!ASKS.test(ctx.failure.output) || !MESON_SETUP.test(ctx.failure.command.trim())) return null;
    const options = await mesonOptions(ctx);
    if (!options) return null;
    return {
      key: 'meson:maintainer-mode',
      reason: `meson setup says maintainer mode must be enabled, and ${options.file} has the option`,
    };
  },
  async apply(ctx) {
    const options = await mesonOptions(ctx);
    if (!options) return { applied: false, description: 'no maintainer-mode option', commands: [] };
    const switches = [
      '-Dmaintainer-mode=true',
      ...(options.docsFollow ? ['-Dbuild-documentation=false'] : []),
    ];
    return {
      applied: true,
      description: `meson setup with ${switches.join(' ')} (the release lacks the sources maintainer mode generates)`,
      commands: [],
      plan: mapCommands(ctx.plan, (c) => (MESON_SETUP.test(c.trim()) ? `${c} ${switches.join(' ')}` : c)),
    };
  },
};

async function mesonOptions(ctx: HeuristicContext): Promise<MesonOptions | null> {
  for (const file of MESON_OPTION_FILES) {
    const text = await readTreeFile(ctx, file);
    if (text && optionNamed('maintainer-mode').test(text))
      return { file, docsFollow: DOCS_FOLLOW.test(text) };
  }
  return null;
}
