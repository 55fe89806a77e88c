import { archBuildLists } from './archBuildLists.ts';
import { archErrors } from './archErrors.ts';
import { archMacros } from './archMacros.ts';
import { asmFiles } from './asmFiles.ts';
import { bareMetal } from './bareMetal.ts';
import { charSignedness } from './charSignedness.ts';
import type { HazardRule } from './HazardRule.ts';
import { inlineAsm } from './inlineAsm.ts';
import { longDouble } from './longDouble.ts';
import { marchNative } from './marchNative.ts';
import { obsoleteCompilerFlags } from './obsoleteCompilerFlags.ts';
import { outdatedConfigGuess } from './outdatedConfigGuess.ts';
import { simdIntrinsics } from './simdIntrinsics.ts';
import { subwordAtomics } from './subwordAtomics.ts';
import { x86CompilerFlags } from './x86CompilerFlags.ts';

/** Every architecture hazard rule of the scan. */
export const hazardRules: readonly HazardRule[] = [
  outdatedConfigGuess,
  archErrors,
  archMacros,
  archBuildLists,
  simdIntrinsics,
  inlineAsm,
  asmFiles,
  bareMetal,
  marchNative,
  x86CompilerFlags,
  obsoleteCompilerFlags,
  subwordAtomics,
  charSignedness,
  longDouble,
];

export * from './HazardRule.ts';
