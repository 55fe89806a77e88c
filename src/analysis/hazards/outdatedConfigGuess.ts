import { checkAutotoolsHelpers } from '../checkAutotoolsHelpers.ts';
import type { HazardRule } from './HazardRule.ts';

/** config.guess / config.sub that predate riscv64: configure stops with "cannot guess build type". */
export const outdatedConfigGuess: HazardRule = {
  kind: 'config-guess',
  description: 'config.guess/config.sub that do not know riscv64',
  scanTree(tree) {
    return checkAutotoolsHelpers(tree)
      .filter((h) => !h.knowsRiscv64)
      .map((h) => ({
        kind: 'config-guess',
        severity: 'high' as const,
        file: h.file,
        line: null,
        snippet: h.timestamp ? `timestamp='${h.timestamp}'` : h.kind,
        message: `${h.kind} does not know riscv64: configure will fail to recognise the machine`,
        suggestion: `replace it with a current copy (/usr/share/misc/${h.kind} from autotools-dev, or autoreconf -fi)`,
      }));
  },
};
