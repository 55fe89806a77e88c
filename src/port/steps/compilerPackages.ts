import type { ExtraLanguage, LanguageUse } from '../../analysis/index.ts';
import { scriptedOf } from '../graph/nodes/scriptedAnalysis.ts';
import type { PortState } from '../state/PortState.ts';

/** The Debian package that brings each language's front end to the riscv64 gcc. */
const LANGUAGE_PACKAGES: Record<ExtraLanguage, string> = {
  'objective-c': 'gobjc',
  'objective-c++': 'gobjc++',
  ada: 'gnat',
};

/**
 * The compiler packages a plan installs beyond the dependencies: in emulated mode those of the
 * languages the build names (the image's gcc has C and C++ only, and under qemu a missing front end
 * fails without a word), and any a redone port carries (the front end its first run lacked).
 */
export function compilerPackages(state: Pick<PortState, 'options' | 'scripted'>): string[] {
  const uses = (scriptedOf(state as PortState)?.extraLanguages ?? []) as readonly (LanguageUse | string)[];
  const named =
    state.options.mode === 'emulated'
      ? uses.flatMap((u) => (typeof u === 'object' && u.needed ? [LANGUAGE_PACKAGES[u.language]] : []))
      : [];
  return [...new Set([...(state.options.compilers ?? []), ...named])].sort();
}
