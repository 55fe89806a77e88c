import { guardCommand, type LlmResult } from '../llm/index.ts';
import type { BuildPlan } from '../plan/index.ts';
import type { Workload } from './OptimizationReport.ts';
import {
  HARNESS_DIR,
  OPTIMIZER_MAX_TOKENS,
  OPTIMIZER_SCHEMA_NAME,
  optimizerPrompt,
  type WorkloadAnswer,
  WorkloadAnswerSchema,
} from './optimizerPrompt.ts';
import { fingerprint as fingerprintOf, runWorkload, type WorkloadRun } from './runWorkload.ts';
import type { TuneWorkbench } from './TuneWorkbench.ts';

export interface ChosenWorkload {
  workload: Workload | null;
  /** The baseline's run of the workload (its output is what every tune must give). */
  reference: WorkloadRun | null;
  /** Why no workload, or what happened to the sources tried before the chosen one. */
  reason: string;
  /** The optimizer's call, for the port's LLM totals. */
  llm?: LlmResult<WorkloadAnswer>;
  /** A command of the optimizer that the command guard refused. */
  refused?: { command: string; reason: string };
}

/** Make targets that are a package's own benchmarks, by convention. */
const BENCH_TARGETS = ['bench', 'benchmark', 'benchmarks'];

/**
 * The workload, from the first source that gives one: the package's own benchmarks (a `bench`
 * make target, Go benchmarks), a program run the optimizer (an LLM) proposes — checked by the
 * command guard and tried on the baseline, twice, in the sandbox —, and last the package's tests,
 * the only source without an LLM. The baseline tree must be built when this runs.
 */
export async function chooseWorkload(bench: TuneWorkbench, plan: BuildPlan): Promise<ChosenWorkload> {
  const context = { ...bench.commandContext(plan), timeoutMs: bench.workloadTimeoutMs, signal: bench.signal };
  const tried: string[] = [];
  const benchmarks = await ownBenchmarks(bench, plan);
  if (benchmarks) {
    const run = await runWorkload(bench.sandbox, benchmarks, context);
    if (run.exitCode === 0 && !run.timedOut)
      return { workload: benchmarks, reference: run, reason: benchmarks.reason };
    tried.push(
      `the package's benchmarks (\`${benchmarks.commands.join(' && ')}\`) failed on the baseline (${failure(run)})`,
    );
  }
  let llm: ChosenWorkload['llm'];
  let refused: ChosenWorkload['refused'];
  if (bench.llm.offline) tried.push('no optimizer (no LLM)');
  else {
    llm = await bench.llm.complete({
      role: 'optimizer',
      ...optimizerPrompt({ packageName: bench.packageName, plan, programs: bench.programs }),
      schema: WorkloadAnswerSchema,
      schemaName: OPTIMIZER_SCHEMA_NAME,
      maxTokens: OPTIMIZER_MAX_TOKENS,
      signal: bench.signal,
    });
    const answer = llm.ok ? llm.value : undefined;
    if (!answer) tried.push(`the optimizer gave no usable answer (LLM ${llm.outcome})`);
    else if (answer.workload === 'none' || !answer.command.trim())
      tried.push(`the optimizer proposed no workload: ${oneLine(answer.reason)}`);
    else {
      const command = answer.command.trim();
      const build = answer.workload === 'harness' ? answer.build_command.trim() : '';
      const problem =
        answer.workload === 'harness' && (!answer.harness_c.trim() || !build)
          ? 'the harness has no source or no build command'
          : [command, ...(build ? [build] : [])].map(checkCommand).find((p) => p !== null);
      if (problem) {
        refused = { command: build ? `${build} && ${command}` : command, reason: problem };
        tried.push(`the optimizer's ${answer.workload} was refused: ${problem}`);
      } else {
        if (build) {
          await bench.sandbox.run(['mkdir', '-p', HARNESS_DIR], { signal: bench.signal });
          await bench.sandbox.writeFile(`${HARNESS_DIR}/harness.c`, answer.harness_c);
        }
        const checked = await tryOptimizerCommand(bench, command, build, oneLine(answer.reason), context);
        if ('workload' in checked)
          return { ...checked, reason: [...tried, checked.workload.reason].join('; '), llm };
        tried.push(checked.problem);
      }
    }
  }
  const tests = plan.phases.find((p) => p.name === 'test')?.commands ?? [];
  if (tests.length === 0) {
    tried.push('the package has no test step');
    return {
      workload: null,
      reference: null,
      reason: tried.join('; '),
      ...(llm ? { llm } : {}),
      ...(refused ? { refused } : {}),
    };
  }
  const workload: Workload = {
    source: 'tests',
    commands: tests,
    compare: 'test-results',
    reason: [...tried, "the package's tests (the last source)"].join('; '),
  };
  const run = await runWorkload(bench.sandbox, workload, context);
  return {
    workload,
    reference: run,
    reason: workload.reason,
    ...(llm ? { llm } : {}),
    ...(refused ? { refused } : {}),
  };
}

/** The package's own benchmarks: a make target that exists in the built tree, or Go's. */
async function ownBenchmarks(bench: TuneWorkbench, plan: BuildPlan): Promise<Workload | null> {
  if (plan.buildSystem === 'go')
    return {
      source: 'benchmarks',
      commands: ["go test -run '^$' -bench . -benchtime 20x ./..."],
      compare: 'numbers-masked',
      reason: "the module's Go benchmarks",
    };
  if (!['make', 'autotools', 'cmake', 'configure', 'qmake'].includes(plan.buildSystem)) return null;
  const { cwd, env } = bench.commandContext(plan);
  for (const target of BENCH_TARGETS) {
    // -n: what make would do, nothing run; status 0 only when the target exists
    const probe = await bench.sandbox.run(['make', '-n', target], {
      cwd,
      env,
      timeoutMs: 60_000,
      signal: bench.signal,
    });
    if (probe.exitCode === 0)
      return {
        source: 'benchmarks',
        commands: [`make ${target}`],
        compare: 'numbers-masked',
        reason: `the package's own benchmarks (make ${target})`,
      };
  }
  return null;
}

/** Why the command guard refuses a command line of the optimizer, or null. */
function checkCommand(command: string): string | null {
  if (command.includes('\n')) return 'the workload must be one command line';
  const verdict = guardCommand(command, { mode: 'fix' });
  return verdict.allowed ? null : verdict.reason;
}

async function tryOptimizerCommand(
  bench: TuneWorkbench,
  command: string,
  build: string,
  why: string,
  context: Parameters<typeof runWorkload>[2],
): Promise<{ workload: Workload; reference: WorkloadRun } | { problem: string }> {
  const exact: Workload = {
    source: 'optimizer',
    commands: [command],
    ...(build ? { setup: [build] } : {}),
    compare: 'exact',
    reason: build ? `a harness the optimizer wrote (${why})` : `the optimizer's program run (${why})`,
  };
  const first = await runWorkload(bench.sandbox, exact, context);
  if (first.exitCode !== 0 || first.timedOut)
    return { problem: `the optimizer's command \`${command}\` failed on the baseline (${failure(first)})` };
  const second = await runWorkload(bench.sandbox, exact, context);
  if (second.fingerprint === first.fingerprint) return { workload: exact, reference: first };
  // a run that prints its own timing is still a workload when only numbers differ
  const masked: Workload = {
    ...exact,
    compare: 'numbers-masked',
    reason: `${exact.reason}; compared with numbers masked, since they changed between two runs`,
  };
  const a = runWorkloadFingerprint(first, masked);
  if (a === runWorkloadFingerprint(second, masked))
    return { workload: masked, reference: { ...first, fingerprint: a } };
  return { problem: `the optimizer's command \`${command}\` prints a different output on every run` };
}

function runWorkloadFingerprint(run: WorkloadRun, workload: Workload): string {
  return fingerprintOf(run.output, run.exitCode, workload.compare);
}

function failure(run: WorkloadRun): string {
  if (run.timedOut) return 'it ran past the time limit';
  const last = run.output.trim().split('\n').at(-1) ?? '';
  return `exit ${run.exitCode}${last ? `: ${oneLine(last)}` : ''}`;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 200);
