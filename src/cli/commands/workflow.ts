import type { Command } from 'commander';
import type { CliContext } from '../CliContext.ts';

export function registerWorkflowCommand(program: Command, _ctx: CliContext): void {
  program.command('workflow').description('run your own workflow files on the graph engine');
}
