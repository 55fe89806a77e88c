import { join } from 'node:path';
import {
  describeProcessGroup,
  killStaleProcessGroup,
  type ProcessGroupRef,
} from '../../process/processGroup.ts';
import { runProcess } from '../../process/runProcess.ts';
import { NodeFailedError } from '../errors.ts';
import type { Context, NodeDefinition, NodeOptions, WorkflowState } from '../types.ts';

/** Bytes of stdout and of stderr kept in the state; the full output is in the log file. */
export const COMMAND_OUTPUT_CAP = 16 * 1024;

export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  /** The full output of the command. */
  logFile: string;
}

type Dynamic<C extends Context, T> = T | ((state: WorkflowState<C>) => T);

export interface CommandNodeOptions<C extends Context> extends NodeOptions<C> {
  command: Dynamic<C, string>;
  cwd?: Dynamic<C, string>;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Where the result goes in the context; default the node's name. */
  resultKey?: string;
  /** Bytes of each stream kept in the state; default 16 KiB. */
  outputCap?: number;
}

/**
 * Runs a shell command in its own process group. The result `{ exitCode, stdout, stderr,
 * durationMs }` is stored at `context[resultKey ?? node]`. A non-zero exit fails the node,
 * unless the node declares `failuresAsData`, in which case the result is stored and routed.
 */
export function CommandNode<C extends Context = Context>(options: CommandNodeOptions<C>): NodeDefinition<C> {
  const { command, cwd, env, timeoutMs, resultKey, outputCap, ...rest } = options;
  return {
    ...rest,
    kind: 'CommandNode',
    run: async (state, ctx) => {
      const line = typeof command === 'function' ? command(state) : command;
      // A run that was killed may have left this command running: stop it before starting again.
      const leftover = (ctx.inFlight as { processGroup?: ProcessGroupRef } | undefined)?.processGroup;
      if (leftover && killStaleProcessGroup(leftover)) {
        ctx.emit({
          type: 'log',
          workflowId: ctx.workflowId,
          node: ctx.node,
          stream: 'stderr',
          text: `stopped process group ${leftover.pgid} left by an interrupted run\n`,
        });
      }
      let recorded: Promise<void> = Promise.resolve();
      const logFile = join(ctx.logDir, `${String(ctx.step).padStart(4, '0')}-${ctx.node}.log`);
      const result = await runProcess({
        command: line,
        ...(cwd !== undefined ? { cwd: typeof cwd === 'function' ? cwd(state) : cwd } : {}),
        ...(env ? { env } : {}),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        signal: ctx.signal,
        captureBytes: outputCap ?? COMMAND_OUTPUT_CAP,
        logFile,
        onSpawn: (pid) => {
          const processGroup = describeProcessGroup(pid);
          if (processGroup) recorded = ctx.saveInFlight({ processGroup });
        },
        onStdout: (chunk) =>
          ctx.emit({
            type: 'log',
            workflowId: ctx.workflowId,
            node: ctx.node,
            stream: 'stdout',
            text: chunk.toString(),
          }),
        onStderr: (chunk) =>
          ctx.emit({
            type: 'log',
            workflowId: ctx.workflowId,
            node: ctx.node,
            stream: 'stderr',
            text: chunk.toString(),
          }),
      });
      await recorded;
      const stored: CommandResult = {
        exitCode: result.exitCode,
        stdout: result.stdout,
        stderr: result.stderr,
        durationMs: Math.round(result.durationMs),
        timedOut: result.timedOut,
        logFile,
      };
      if (result.exitCode !== 0 && !rest.failuresAsData) {
        const why = result.timedOut
          ? `timed out after ${timeoutMs} ms`
          : `exited with status ${result.exitCode}`;
        const tail = result.stderr.trim().split('\n').slice(-5).join('\n');
        throw new NodeFailedError(
          'command-failed',
          `command '${line}' ${why}${tail ? `:\n${tail}` : ''}\n(full log: ${logFile})`,
          { node: ctx.node },
        );
      }
      return { context: { [resultKey ?? ctx.node]: stored } as Partial<C> };
    },
  };
}
