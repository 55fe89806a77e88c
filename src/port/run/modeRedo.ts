import type { SandboxMode, TargetMode } from '../../sandbox/index.ts';
import { crossCompiles, frontEndMissing } from '../steps/frontEndMissing.ts';
import type { RequestedMode } from './chooseSandboxMode.ts';
import type { PortRequest } from './PortRequest.ts';
import { redoReason, userlandRefusal } from './userlandRefusal.ts';

/** A port to run again, from the start, in another mode. */
export interface ModeRedo {
  mode: SandboxMode;
  /** The report's sentence: why the port was redone in this mode. */
  reason: string;
  /** Compiler packages the redone port's plan installs (the front end the first run lacked). */
  compilers?: string[];
}

/**
 * Whether a finished port is redone in another mode: a native-userland build its own evidence
 * refused, in accelerated mode; a build in an accelerated mode that ended unverified because gcc
 * lacked a language's front end, in emulated mode with the package that brings the front end to
 * the riscv64 gcc (its plan installs it: emulated gcc under qemu fails without a word when the
 * front end is missing). Only a mode rvport chose (`auto`) is changed: a mode asked for by
 * name stands.
 */
export function modeRedo(
  state: Parameters<typeof userlandRefusal>[0],
  built: { mode: TargetMode; perBuild: boolean; asked: RequestedMode },
): ModeRedo | undefined {
  const refused = built.perBuild ? userlandRefusal(state) : undefined;
  const frontEnd =
    built.asked === 'auto' && crossCompiles(built.mode) && state.verification?.verdict !== 'verified'
      ? state.errors.map(frontEndMissing).find((f) => f !== undefined)
      : undefined;
  if (!frontEnd) return refused ? { mode: 'accelerated', reason: redoReason(refused) } : undefined;
  return {
    mode: 'emulated',
    reason: `the build needs the ${frontEnd.language} compiler (${frontEnd.frontEnd}), which the ${built.mode} cross gcc lacks; redone in emulated mode with ${frontEnd.package}`,
    compilers: [frontEnd.package],
  };
}

/** The mode the user asked for, through any redo. */
export function askedMode(request: Pick<PortRequest, 'mode' | 'redoOf'>): RequestedMode {
  return request.redoOf?.asked ?? request.mode;
}
