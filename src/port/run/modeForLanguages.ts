import type { ExtraLanguage } from '../../analysis/index.ts';
import { type LanguageUse, languagesNeeded } from '../../analysis/index.ts';
import type { ModeChoice, RequestedMode } from './chooseSandboxMode.ts';

/** Debian's riscv64 packages with the compiler proper of each language, for the reason. */
const FRONT_END: Record<ExtraLanguage, string> = {
  'objective-c': 'Objective-C (cc1obj)',
  'objective-c++': 'Objective-C++ (cc1objplus)',
  ada: 'Ada (gnat1)',
};

/**
 * The accelerated modes' compilers are x86_64 cross gcc for C and C++ only: `gcc` there cannot
 * compile Objective-C or Ada (`cannot execute 'cc1obj'`), while the emulated riscv64 gcc takes the
 * front end from the riscv64 package the build installs. A tree whose build names those languages
 * therefore builds in emulated mode when the mode is `auto`; a mode asked for by name stands, and
 * its reason says what will be missing. Code of those languages that the build never names (zlib's
 * contrib/ada beside a C-only CMake build) changes nothing but the reason: should the build need
 * the front end after all, the port is redone in emulated mode (modeRedo.ts).
 */
export function modeForLanguages(
  choice: ModeChoice,
  requested: RequestedMode,
  uses: readonly LanguageUse[],
): ModeChoice {
  if (uses.length === 0 || choice.mode === 'emulated') return choice;
  const needed = languagesNeeded(uses);
  const frontEnds = (languages: readonly ExtraLanguage[]) => languages.map((l) => FRONT_END[l]).join(', ');
  if (needed.length === 0) {
    return {
      ...choice,
      reason: `${choice.reason}; the tree has ${frontEnds(uses.map((u) => u.language))} code but ${uses[0]?.why}, so the cross gcc's C and C++ suffice (redone in emulated mode if the build needs that front end after all)`,
    };
  }
  const names = frontEnds(needed);
  const why = uses.find((u) => u.needed)?.why;
  if (requested === 'auto') {
    return {
      mode: 'emulated',
      reason: `the build compiles ${names} code (${why}) and the accelerated cross gcc has C and C++ front ends only; built in emulated mode`,
    };
  }
  return {
    ...choice,
    reason: `${choice.reason}; the build compiles ${names} code (${why}), which the ${choice.mode} cross gcc cannot compile (--mode emulated can)`,
  };
}
