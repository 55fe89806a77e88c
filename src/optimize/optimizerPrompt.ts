import { z } from 'zod';
import type { BuildPlan } from '../port/PortState.ts';

export const OPTIMIZER_SCHEMA_NAME = 'workload';
export const OPTIMIZER_MAX_TOKENS = 1_000;
export const MAX_WORKLOAD_COMMAND = 400;

/** The optimizer's answer: one shell command line that does a fixed amount of work, or none. */
export const WorkloadAnswerSchema = z.object({
  workload: z.enum(['command', 'none']),
  command: z.string().max(MAX_WORKLOAD_COMMAND),
  reason: z.string().max(600),
});
export type WorkloadAnswer = z.infer<typeof WorkloadAnswerSchema>;

const SYSTEM = `You choose a benchmark workload for a package that was just built for riscv64 Linux.
The workload is ONE shell command line that runs in the package's build folder, with no network,
using the programs or libraries that were built. It must do the same fixed work every run, take
between 1 and 20 seconds, print a deterministic result (no timings, dates, random numbers or
addresses) and exit with status 0. Prefer a run of a built program on input it generates itself
(for example a compressor round-tripping a generated file). Do not install, download or modify
the build. Answer {"workload":"none","command":"","reason":"..."} when no such run exists.
Answer with JSON only: {"workload":"command"|"none","command":"...","reason":"..."}.`;

export function optimizerPrompt(facts: {
  packageName: string;
  plan: BuildPlan;
  programs: readonly string[];
}): { system: string; messages: { role: 'user'; content: string }[] } {
  const tests = facts.plan.phases.find((p) => p.name === 'test')?.commands ?? [];
  const lines = [
    `Package: ${facts.packageName}`,
    `Build system: ${facts.plan.buildSystem}, build folder: ${facts.plan.dir}`,
    `Programs built (relative to the build folder): ${facts.programs.length ? facts.programs.join(', ') : 'none (a library)'}`,
    `The package's test commands: ${tests.length ? tests.join(' && ') : 'none'}`,
  ];
  return { system: SYSTEM, messages: [{ role: 'user', content: lines.join('\n') }] };
}
