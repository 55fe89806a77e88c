import type { Command } from 'commander';
import type { CliContext } from './CliContext.ts';

export type CommandRegistration = (program: Command, ctx: CliContext) => void;

/**
 * Every top-level command, by name, with the import of its registration. A command's module pulls
 * in what it runs (the port graph, the LLM SDKs, the queue client), so the CLI imports only the
 * one that is invoked: `rvport --version` loads none of them.
 */
export const commands: ReadonlyArray<{ name: string; load: () => Promise<CommandRegistration> }> = [
  { name: 'port', load: async () => (await import('./commands/port.ts')).registerPortCommand },
  { name: 'workflow', load: async () => (await import('./commands/workflow.ts')).registerWorkflowCommand },
  { name: 'verify', load: async () => (await import('./commands/verify.ts')).registerVerifyCommand },
  { name: 'analyze', load: async () => (await import('./commands/analyze.ts')).registerAnalyzeCommand },
  { name: 'replay', load: async () => (await import('./commands/replay.ts')).registerReplayCommand },
  { name: 'sandbox', load: async () => (await import('./commands/sandbox.ts')).registerSandboxCommand },
  { name: 'cache', load: async () => (await import('./commands/cache.ts')).registerCacheCommand },
  { name: 'batch', load: async () => (await import('./commands/batch.ts')).registerBatchCommand },
  { name: 'target', load: async () => (await import('./commands/target.ts')).registerTargetCommand },
  { name: 'probe', load: async () => (await import('./commands/probe.ts')).registerProbeCommand },
  { name: 'doctor', load: async () => (await import('./commands/doctor.ts')).registerDoctorCommand },
  { name: 'worker', load: async () => (await import('./commands/worker.ts')).registerWorkerCommand },
  { name: 'serve', load: async () => (await import('./commands/serve.ts')).registerServeCommand },
];

export const commandNames: readonly string[] = commands.map((c) => c.name);
