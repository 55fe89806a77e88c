import { z } from 'zod';
import type { BuildPlan } from '../plan/index.ts';

export const OPTIMIZER_SCHEMA_NAME = 'workload';
export const OPTIMIZER_MAX_TOKENS = 1_000;
export const MAX_WORKLOAD_COMMAND = 400;
export const MAX_HARNESS_SOURCE = 12_000;
/** Where a harness of the optimizer is written and built, outside every build tree. */
export const HARNESS_DIR = '/build/rvport-workload';

/**
 * The optimizer's answer: one shell command line that does a fixed amount of work, or a small C
 * harness (its source, the command line that builds it against the built library, the command
 * line that runs it), or none.
 */
export const WorkloadAnswerSchema = z.object({
  workload: z.enum(['command', 'harness', 'none']),
  command: z.string().max(MAX_WORKLOAD_COMMAND),
  harness_c: z.string().max(MAX_HARNESS_SOURCE),
  build_command: z.string().max(MAX_WORKLOAD_COMMAND),
  reason: z.string().max(600),
});
export type WorkloadAnswer = z.infer<typeof WorkloadAnswerSchema>;

const SYSTEM = `You choose a benchmark workload for a package that was just built for riscv64 Linux.
The workload is ONE shell command line that runs in the package's build folder, with no network,
using the programs or libraries that were built. It must do the same fixed work every run, take
between 1 and 20 seconds, print a deterministic result (no timings, dates, random numbers or
addresses) and exit with status 0. Prefer a run of a built program on input it generates itself
(for example a compressor round-tripping a generated file). Do not install, download or modify
the build. For a library without a suitable program, write a small C harness instead: its source
goes to ${HARNESS_DIR}/harness.c; build_command compiles it in the build folder against the
library just built, with "$CC" and $CFLAGS, into ${HARNESS_DIR}/harness; command runs it.
Answer {"workload":"none",...} when neither is possible. Unused fields are "".
Answer with JSON only: {"workload":"command"|"harness"|"none","command":"...","harness_c":"...","build_command":"...","reason":"..."}.`;

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
