import { join } from 'node:path';
import { runProcess } from '../../process/runProcess.ts';
import { NodeFailedError } from '../errors.ts';
import type { Context, NodeDefinition, NodeOptions, WorkflowState } from '../types.ts';

export interface SlashCommandResult {
  exitCode: number;
  /** The command's final answer (Claude Code's `result`, or the raw output). */
  result: string;
  sessionId?: string;
  costUsd?: number;
  durationMs: number;
}

export interface SlashCommandNodeOptions<C extends Context> extends NodeOptions<C> {
  /** The slash command, with or without the leading '/': 'review', '/test-fix'. */
  command: string;
  args?: string | ((state: WorkflowState<C>) => string);
  /** The Claude Code executable; default `$RVPORT_CLAUDE_BIN` or `claude` on PATH. */
  binary?: string;
  cwd?: string;
  model?: string;
  allowedTools?: string[];
  timeoutMs?: number;
  resultKey?: string;
}

/** Runs a Claude Code slash command non-interactively (`claude -p "/cmd args"`). */
export function SlashCommandNode<C extends Context = Context>(
  options: SlashCommandNodeOptions<C>,
): NodeDefinition<C> {
  const { command, args, binary, cwd, model, allowedTools, timeoutMs, resultKey, ...rest } = options;
  return {
    ...rest,
    kind: 'SlashCommandNode',
    run: async (state, ctx) => {
      const exe = binary ?? process.env.RVPORT_CLAUDE_BIN ?? 'claude';
      const argText = typeof args === 'function' ? args(state) : (args ?? '');
      const promptText = `/${command.replace(/^\//, '')}${argText ? ` ${argText}` : ''}`;
      const argv = [exe, '-p', promptText, '--output-format', 'json'];
      if (model) argv.push('--model', model);
      if (allowedTools?.length) argv.push('--allowedTools', allowedTools.join(','));
      let result: Awaited<ReturnType<typeof runProcess>>;
      try {
        result = await runProcess({
          command: argv,
          ...(cwd ? { cwd } : {}),
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          signal: ctx.signal,
          logFile: join(ctx.logDir, `${String(ctx.step).padStart(4, '0')}-${ctx.node}.log`),
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new NodeFailedError(
            'claude-not-found',
            `the Claude Code CLI '${exe}' was not found: install it, or set RVPORT_CLAUDE_BIN or the node's binary`,
            { node: ctx.node },
          );
        }
        throw error;
      }
      const parsed = parseClaudeOutput(result.stdout);
      const stored: SlashCommandResult = {
        exitCode: result.exitCode,
        result: parsed.result ?? result.stdout.trim(),
        durationMs: Math.round(result.durationMs),
        ...(parsed.sessionId ? { sessionId: parsed.sessionId } : {}),
        ...(parsed.costUsd !== undefined ? { costUsd: parsed.costUsd } : {}),
      };
      if ((result.exitCode !== 0 || parsed.isError) && !rest.failuresAsData) {
        const detail = (result.stderr.trim() || stored.result).split('\n').slice(-5).join('\n');
        const why = result.timedOut ? `timed out after ${timeoutMs} ms` : `failed (exit ${result.exitCode})`;
        throw new NodeFailedError('slash-command-failed', `slash command ${promptText} ${why}: ${detail}`, {
          node: ctx.node,
        });
      }
      const at = new Date(ctx.clock.now()).toISOString();
      return {
        context: { [resultKey ?? ctx.node]: stored } as Partial<C>,
        history: [
          { role: 'user', content: promptText, node: ctx.node, at },
          { role: 'assistant', content: stored.result, node: ctx.node, at },
        ],
      };
    },
  };
}

function parseClaudeOutput(stdout: string): {
  result?: string;
  sessionId?: string;
  costUsd?: number;
  isError?: boolean;
} {
  try {
    const json = JSON.parse(stdout) as Record<string, unknown>;
    return {
      ...(typeof json.result === 'string' ? { result: json.result } : {}),
      ...(typeof json.session_id === 'string' ? { sessionId: json.session_id } : {}),
      ...(typeof json.total_cost_usd === 'number' ? { costUsd: json.total_cost_usd } : {}),
      isError: json.is_error === true,
    };
  } catch {
    return {}; // plain text output (older CLI versions, or --output-format text)
  }
}
