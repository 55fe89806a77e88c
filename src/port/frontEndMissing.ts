import type { TargetMode } from '../sandbox/Sandbox.ts';
import type { ErrorRecord } from './PortState.ts';

/**
 * gcc's words when a language's compiler proper is missing. The accelerated modes' x86_64 cross
 * gcc has C and C++ only (`gcc: fatal error: cannot execute 'cc1obj': execvp: No such file or
 * directory`): there no package install brings the front end, only emulated mode's riscv64 gcc.
 */
const MISSING_FRONT_END = /(?:cannot execute|error trying to exec) '(?:[^'\n]*\/)?(cc1obj|cc1objplus|gnat1)'/;

const LANGUAGE: Record<string, string> = {
  cc1obj: 'Objective-C',
  cc1objplus: 'Objective-C++',
  gnat1: 'Ada',
};

/** The front end an error shows gcc lacked, with its language, when it is one only emulated mode has. */
export function frontEndMissing(
  error: Pick<ErrorRecord, 'message' | 'errorLine'>,
): { frontEnd: string; language: string } | undefined {
  const frontEnd = MISSING_FRONT_END.exec(`${error.errorLine ?? ''}\n${error.message}`)?.[1];
  return frontEnd ? { frontEnd, language: LANGUAGE[frontEnd] as string } : undefined;
}

/** Whether a mode's gcc is the x86_64 cross compiler (C and C++ front ends only). */
export function crossCompiles(mode: TargetMode): boolean {
  return mode === 'accelerated' || mode === 'native-userland';
}
