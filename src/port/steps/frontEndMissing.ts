import type { TargetMode } from '../../sandbox/index.ts';
import type { ErrorRecord } from '../state/PortState.ts';

/**
 * gcc's words when a language's compiler proper is missing. The accelerated modes' x86_64 cross
 * gcc has C and C++ only (`gcc: fatal error: cannot execute 'cc1obj': execvp: No such file or
 * directory`, with typographic quotes in a UTF-8 locale): there no package install brings the front
 * end, only emulated mode's riscv64 gcc.
 */
const MISSING_FRONT_END =
  /(?:cannot execute|error trying to exec) ['‘](?:[^'’\n]*\/)?(cc1obj|cc1objplus|gnat1)['’]/;

/** Each front end's language and the Debian package that brings it to the riscv64 gcc. */
const FRONT_ENDS: Record<string, { language: string; package: string }> = {
  cc1obj: { language: 'Objective-C', package: 'gobjc' },
  cc1objplus: { language: 'Objective-C++', package: 'gobjc++' },
  gnat1: { language: 'Ada', package: 'gnat' },
};

export interface MissingFrontEnd {
  frontEnd: string;
  language: string;
  package: string;
}

/** The front end an error shows gcc lacked, when it is one only emulated mode has. */
export function frontEndMissing(
  error: Pick<ErrorRecord, 'message' | 'errorLine'>,
): MissingFrontEnd | undefined {
  const frontEnd = MISSING_FRONT_END.exec(`${error.errorLine ?? ''}\n${error.message}`)?.[1];
  const known = frontEnd ? FRONT_ENDS[frontEnd] : undefined;
  return frontEnd && known ? { frontEnd, ...known } : undefined;
}

/** Whether a mode's gcc is the x86_64 cross compiler (C and C++ front ends only). */
export function crossCompiles(mode: TargetMode): boolean {
  return mode === 'accelerated' || mode === 'native-userland';
}
