import type { ExtraLanguage } from '../analysis/compiledLanguages.ts';
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
 * front end from the riscv64 package the build installs. A tree with those languages therefore
 * builds in emulated mode when the mode is `auto`; a mode asked for by name stands, and its reason
 * says what will be missing.
 */
export function modeForLanguages(
  choice: ModeChoice,
  requested: RequestedMode,
  languages: readonly ExtraLanguage[],
): ModeChoice {
  if (languages.length === 0 || choice.mode === 'emulated') return choice;
  const names = languages.map((l) => FRONT_END[l]).join(', ');
  if (requested === 'auto') {
    return {
      mode: 'emulated',
      reason: `the tree has ${names} code and the accelerated cross gcc has C and C++ front ends only; built in emulated mode`,
    };
  }
  return {
    ...choice,
    reason: `${choice.reason}; the tree has ${names} code, which the ${choice.mode} cross gcc cannot compile (--mode emulated can)`,
  };
}
