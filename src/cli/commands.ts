import type { Command } from 'commander';
import type { CliContext } from './CliContext.ts';
import { registerAnalyzeCommand } from './commands/analyze.ts';
import { registerBatchCommand } from './commands/batch.ts';
import { registerCacheCommand } from './commands/cache.ts';
import { registerPortCommand } from './commands/port.ts';
import { registerSandboxCommand } from './commands/sandbox.ts';
import { registerVerifyCommand } from './commands/verify.ts';
import { registerWorkerCommand } from './commands/worker.ts';
import { registerWorkflowCommand } from './commands/workflow.ts';

/** Every top-level command, one registration each. */
export const commandRegistrations: ReadonlyArray<(program: Command, ctx: CliContext) => void> = [
  registerPortCommand,
  registerWorkflowCommand,
  registerVerifyCommand,
  registerAnalyzeCommand,
  registerSandboxCommand,
  registerCacheCommand,
  registerBatchCommand,
  registerWorkerCommand,
];
