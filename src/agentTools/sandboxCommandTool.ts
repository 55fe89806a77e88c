import type { AgentTool, Context } from '../engine/index.ts';
import { guardCommand } from '../llm/index.ts';
import type { SandboxMode } from '../sandbox/index.ts';
import { createSandbox } from '../sandbox/index.ts';

export interface SandboxCommandToolOptions {
  /** A host folder copied to /build/src in the instance, where the commands run. */
  source?: string;
  /** RVPORT_HOME; default from the environment. */
  home?: string;
  mode?: SandboxMode;
  /** Time limit of one command (default 30 s). */
  timeoutMs?: number;
  /** Bytes of output the model gets back (default 16 KiB, the tail when longer). */
  maxOutputBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_OUTPUT = 16 * 1024;

/**
 * An AgentNode tool that runs one read-only shell command in a throwaway riscv64 sandbox
 * instance (`{ "command": "readelf -h prog" }`). Commands the guard refuses (writes, installs,
 * network, mount, chroot, anything that would leave the sandbox) are not run; the model is told
 * why. Each call gets a fresh instance (about 0.1 s), destroyed afterwards.
 */
export function sandboxCommandTool<C extends Context = Context>(
  options: SandboxCommandToolOptions = {},
): AgentTool<C> {
  return {
    description:
      'Run one read-only shell command (cat, grep, ls, find, readelf, objdump, file, uname …) in a riscv64 Debian sandbox without network; input {"command": "..."}; the source is at /build/src.',
    async run(input, _state, ctx) {
      const command =
        typeof input === 'string'
          ? input
          : typeof (input as { command?: unknown } | null)?.command === 'string'
            ? (input as { command: string }).command
            : null;
      if (!command?.trim()) return 'refused: the input must be {"command": "..."}';
      const verdict = guardCommand(command, { mode: 'inspect' });
      if (!verdict.allowed) return `refused: ${verdict.reason}`;
      const sandbox = await createSandbox({
        ...(options.home ? { home: options.home } : {}),
        ...(options.mode ? { mode: options.mode } : {}),
      });
      try {
        if (options.source) await sandbox.copyIn(options.source, '/build/src');
        const result = await sandbox.run(command, {
          cwd: options.source ? '/build/src' : '/build',
          timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          signal: ctx.signal,
        });
        const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
        const output = `${result.stdout}${result.stderr ? `\n${result.stderr}` : ''}`;
        const clipped = output.length > max ? `…\n${output.slice(-max)}` : output;
        return `exit ${result.exitCode}${result.timedOut ? ' (time limit)' : ''}\n${clipped}`;
      } finally {
        await sandbox.destroy();
      }
    },
  };
}
