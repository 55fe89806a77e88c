import { CommanderError } from 'commander';
import { isRvportError, type RvportError } from '../errors/index.ts';
import { ExitCode } from './exitCodes.ts';
import { isUsageError } from './UsageError.ts';

/** What the CLI says about an error that ended a command, and the exit code it ends with. */
export interface ErrorDescription {
  /** The text after `rvport: ` on stderr; null when nothing is printed (commander already did). */
  message: string | null;
  exitCode: number;
}

export interface ErrorContext {
  /** The command that was running (`port`, `replay`, …), when one was. */
  command?: string | undefined;
  /** Ctrl+C (or SIGTERM) was received: a sandbox or probe that fails now failed because of it. */
  aborted: boolean;
}

type Say = (error: RvportError, context: ErrorContext) => string | null;
const asItIs: Say = (error) => error.message;

/**
 * rvport's errors that are expected (bad input, a host or target that is not ready, a source that
 * cannot be had): their messages, by class name. This file imports no room but src/errors, so
 * start-up stays light and every copy of a class is recognised (isRvportError's brand).
 */
const EXPECTED: Record<string, Say> = {
  SandboxError: (error) => {
    const fix = (error as { fix?: unknown }).fix;
    return typeof fix === 'string' && fix
      ? `${error.message}\nto fix it, run:\n${fix.replace(/^/gm, '  ')}`
      : error.message;
  },
  // an expected host failure: the checks and their fixes
  PreflightError: (error) => `${error.message}\n(rvport doctor checks everything)`,
  SourceError: (error, { command }) =>
    command === 'replay' ? `the source cannot be acquired: ${error.message}` : error.message,
  ReplayError: asItIs,
  StateFileError: (error, { command }) =>
    command === 'port' ? `${error.message}; rvport port --restart discards it` : error.message,
  EngineError: asItIs,
  WorkflowDefinitionError: asItIs,
  WorkflowLockedError: asItIs,
  TransitionError: asItIs,
  StepLimitError: asItIs,
  NodeFailedError: asItIs,
  ProbeOutputError: (error) => `probe failed: ${error.message}`,
  DashboardListenError: asItIs,
  BatchStateError: asItIs,
  QueueUrlError: asItIs,
  RecipeCacheError: asItIs,
  // a bad LLM configuration file is bad input; other LLM failures are reported as data
  LlmError: (error) => (error.code === 'config-invalid' ? error.message : null),
};

/**
 * The one place where an error that ended a command becomes a message and an exit code (README:
 * 1 for a failure or bad input, 130 when interrupted): an expected error is one clear message,
 * never a stack trace; anything else is a bug and is shown with its stack.
 */
export function describeError(error: unknown, context: ErrorContext): ErrorDescription {
  // help and version are "errors" in commander's exitOverride; commander printed the others
  if (error instanceof CommanderError)
    return { message: null, exitCode: error.exitCode === 0 ? ExitCode.Success : ExitCode.Failure };
  if (isUsageError(error)) return { message: error.message, exitCode: error.exitCode };
  if (context.aborted && isRvportError(error) && ['SandboxError', 'ProbeOutputError'].includes(error.name))
    return { message: 'interrupted', exitCode: ExitCode.Interrupted };
  const say = isRvportError(error) && Object.hasOwn(EXPECTED, error.name) ? EXPECTED[error.name] : undefined;
  const said = say ? say(error as RvportError, context) : null;
  if (said !== null)
    return { message: context.command === 'replay' ? `replay: ${said}` : said, exitCode: ExitCode.Failure };
  const shown = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { message: `unexpected error: ${shown}`, exitCode: ExitCode.Failure };
}
