import type { PortState } from '../state/PortState.ts';
import { FUNDAMENTAL_BLOCKERS, SANDBOX_LIMIT_CATEGORIES } from '../state/vocabulary.ts';
import { crossCompiles, frontEndMissing } from './frontEndMissing.ts';

/** Errors in a row with one signature that mean the port is going round in circles. */
export const LOOP_LENGTH = 3;

export function attemptsExhausted(state: PortState): boolean {
  return state.attemptCount >= state.options.maxAttempts;
}

export function isErrorLoop(state: PortState): boolean {
  if (state.attemptCount < LOOP_LENGTH || state.errors.length < LOOP_LENGTH) return false;
  const last = state.errors.slice(-LOOP_LENGTH).map((e) => e.signature);
  return last.every((s) => s === last[0]);
}

/**
 * Why the port must stop and go to a person, or null. Checked by the supervisor before any
 * other routing: the attempt limit, an error loop, a permission or disk-space error, a compiler
 * front end the mode's gcc cannot have, a fundamental blocker, the LLM cost cap.
 */
export function escalationReason(state: PortState): string | null {
  const last = state.errors.at(-1);
  if (attemptsExhausted(state)) return `the attempt limit (${state.options.maxAttempts}) is reached`;
  if (isErrorLoop(state)) return `the same error ${LOOP_LENGTH} times in a row: ${last?.signature}`;
  if (last?.category === 'PERMISSION') return 'a permission error, which a rebuild cannot fix';
  const frontEnd = last && crossCompiles(state.options.mode) ? frontEndMissing(last) : undefined;
  if (frontEnd)
    return `the ${state.options.mode} cross gcc has no ${frontEnd.language} compiler (${frontEnd.frontEnd}), and no package brings one to it: only emulated mode's riscv64 gcc can build this (--mode emulated)`;
  if (last?.category === 'DISK_SPACE')
    return `the disk is full or the sandbox's disk limit was reached: ${last.evidence ?? last.message.split('\n').at(-1)}`;
  if (last && SANDBOX_LIMIT_CATEGORIES.has(last.category))
    return `a limit of the sandbox stopped the build (${last.category}): ${last.evidence ?? last.message.split('\n').at(-1)}`;
  if (last && FUNDAMENTAL_BLOCKERS.has(last.category))
    return `a fundamental blocker (${last.category}): ${last.evidence ?? last.message.split('\n')[0]}`;
  if (state.llm.costUsd > state.options.costCapUsd) {
    return `LLM cost $${state.llm.costUsd.toFixed(2)} passed the cap of $${state.options.costCapUsd.toFixed(2)}`;
  }
  return null;
}
