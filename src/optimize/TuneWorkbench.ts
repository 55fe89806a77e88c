import type { LlmClient } from '../llm/index.ts';
import type { BuildPlan } from '../plan/index.ts';
import type { Sandbox } from '../sandbox/index.ts';
import type { TargetFacts } from './OptimizationReport.ts';

export interface TestOutcome {
  ran: boolean;
  passed: number;
  failed: number;
  exitCode: number | null;
  summary: string;
}

/** An artifact of the verified port to check in every tune. */
export interface GatedArtifact {
  /** As the port reports it. */
  path: string;
  /** Where it is inside the sandbox after a build. */
  inside: string;
}

/**
 * What performance mode gets from the workflow that runs it: the target (any sandbox, local or a
 * remote machine), how the port builds a plan and runs its tests there, and where things are.
 * The workflow owns the build steps; performance mode only decides what to build and judges it.
 */
export interface TuneWorkbench {
  sandbox: Pick<Sandbox, 'run' | 'copyOut' | 'writeFile' | 'mode' | 'id'>;
  /** Probes the target (ISA, compilers, emulated or not). */
  probe(): Promise<TargetFacts>;
  /** Builds `plan` from a fresh copy of the source into `srcDir`/`destDir`; the failure, never a throw. */
  build(plan: BuildPlan, label: string): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** The package's tests, run once with `plan`'s environment. */
  runTests(plan: BuildPlan): Promise<TestOutcome>;
  /** Folder and environment of `plan`'s commands inside the sandbox. */
  commandContext(plan: BuildPlan): { cwd: string; env: Record<string, string> };
  artifacts: GatedArtifact[];
  /** Programs the port built (paths relative to the build folder), for the optimizer's prompt. */
  programs: string[];
  packageName: string;
  srcDir: string;
  destDir: string;
  /** A folder of the sandbox where built trees are kept while tunes are compared. */
  workDir: string;
  llm: LlmClient;
  workloadTimeoutMs: number;
  progress(message: string): void;
  signal: AbortSignal;
}
