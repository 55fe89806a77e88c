import type { LlmResult } from '../llm/index.ts';
import type { BuildPlan } from '../plan/index.ts';
import { PGO_DIR, planTunes, type TuneSpec, tuneEnv } from './buildTune.ts';
import { chooseWorkload } from './chooseWorkload.ts';
import { gateArtifacts, gateTests, gateWorkload } from './gateTune.ts';
import { compareInterleaved } from './measure.ts';
import {
  NO_SPEED_CLAIM,
  type OptimizationReport,
  type TuneResult,
  type Workload,
} from './OptimizationReport.ts';
import { HARNESS_DIR } from './optimizerPrompt.ts';
import { runWorkload, type WorkloadRun } from './runWorkload.ts';
import type { TestOutcome, TuneWorkbench } from './TuneWorkbench.ts';
import { dropTrees, stashTree, unstashTree, withTree } from './variantTrees.ts';

export interface OptimizeOptions {
  /** Timed runs of each build per check on a native target. */
  nativeRuns?: number;
  /** Timed runs under emulation (the figures are shown, never claimed). */
  emulatedRuns?: number;
}

export interface OptimizationOutcome {
  report: OptimizationReport;
  /** The optimizer's LLM call, when one was made. */
  llm?: LlmResult;
  refused?: { command: string; reason: string };
}

const BASELINE = 'baseline';
const COST_PROXY_NONE =
  "none available: the riscv64 code runs under qemu-user, whose static build here cannot load the TCG plugins that count instructions, and a host profiler (perf, valgrind) would count qemu's own instructions, not the program's";

/**
 * Performance mode after a verified port, in the seed's order: probe; the verified plan built
 * again as the baseline from a fresh copy; the workload; the tunes, each a plan variant; the
 * gates of each; then the measurement (statistics), which makes a speed claim on a native target
 * only. The verified build is left in the build folders at the end (the baseline is a build of
 * the same plan from the same source). Throws only what the caller must stop for (an interrupt,
 * a sandbox that cannot move its trees); the node records it as a failed performance mode.
 */
export async function runOptimization(
  bench: TuneWorkbench,
  plan: BuildPlan,
  options: OptimizeOptions = {},
): Promise<OptimizationOutcome> {
  const started = Date.now();
  const notes: string[] = [];
  const report = (
    fields: Partial<OptimizationReport> & Pick<OptimizationReport, 'status'>,
  ): OptimizationReport => ({
    tunes: [],
    winner: null,
    verdict: '',
    costProxy: COST_PROXY_NONE,
    notes,
    durationMs: Date.now() - started,
    ...fields,
  });
  bench.progress('performance mode: probing the target');
  const target = await bench.probe();
  notes.push(...target.notes);
  bench.progress('performance mode: building the baseline (the verified plan, from a fresh copy)');
  const built = await bench.build(plan, BASELINE);
  if (!built.ok)
    return {
      report: report({
        status: 'failed',
        target,
        reason: `the baseline did not build again: ${built.reason}`,
        verdict: 'no tune was measured',
      }),
    };
  const baseArtifacts = await gateArtifacts(bench, bench.artifacts, []);
  if (!baseArtifacts.passed)
    return {
      report: report({
        status: 'failed',
        target,
        reason: `the baseline's artifacts: ${baseArtifacts.detail}`,
        verdict: 'no tune was measured',
      }),
    };
  bench.progress('performance mode: choosing the workload');
  const chosen = await chooseWorkload(bench, plan);
  const workload = chosen.workload;
  const reference = chosen.reference;
  if (!workload) notes.push(`no workload: ${chosen.reason}; the tunes are gated without one and not timed`);
  const baselineTests = await bench.runTests(plan);
  const llmFields = {
    ...(chosen.llm ? { llm: chosen.llm as LlmResult } : {}),
    ...(chosen.refused ? { refused: chosen.refused } : {}),
  };
  await stashTree(bench, BASELINE);
  const tunes: TuneResult[] = [];
  const plans = new Map<string, BuildPlan>([[BASELINE, plan]]);
  try {
    for (const spec of planTunes(plan, target)) {
      if (bench.signal.aborted) throw bench.signal.reason ?? new Error('interrupted');
      const result = await buildAndGate(bench, plan, spec, workload, reference, baselineTests);
      tunes.push(result);
      if (result.status === 'gated' && spec.plan) {
        plans.set(spec.name, spec.plan);
        await stashTree(bench, spec.name);
      }
    }
    const gated = tunes.filter((t) => t.status === 'gated');
    let winner: string | null = null;
    let verdict: string;
    if (!workload || !reference)
      verdict = target.emulated
        ? `${NO_SPEED_CLAIM}; no workload to time`
        : 'no workload to time: no speed claim';
    else if (gated.length === 0)
      verdict = target.emulated ? `${NO_SPEED_CLAIM}; no tune passed its gates` : 'no tune passed its gates';
    else {
      const runs = target.emulated ? (options.emulatedRuns ?? 3) : (options.nativeRuns ?? 7);
      for (const tune of gated) {
        bench.progress(`performance mode: timing ${tune.name} against the baseline (${runs} runs each)`);
        tune.timing = await timeAgainstBaseline(bench, plans, workload, tune.name, runs);
      }
      if (target.emulated)
        verdict = `${NO_SPEED_CLAIM}: the timings are of qemu, not of a riscv64 machine, and name no winner`;
      else {
        const best = gated
          .filter((t) => t.timing?.faster)
          .sort((x, y) => (x.timing?.ratio ?? 1) - (y.timing?.ratio ?? 1))[0];
        if (!best) verdict = 'no tune was faster than the baseline in the rank test';
        else {
          bench.progress(`performance mode: checking ${best.name} again, separately`);
          best.confirmation = await timeAgainstBaseline(bench, plans, workload, best.name, runs);
          if (best.confirmation.faster) {
            winner = best.name;
            verdict = `${best.name} is faster: median ${pct(best.timing?.ratio)} then ${pct(best.confirmation.ratio)} of the baseline's time, in two separate checks`;
          } else verdict = `${best.name} won the first check but not the second: no winner`;
        }
      }
    }
    return {
      report: report({
        status: 'done',
        target,
        ...(workload ? { workload } : {}),
        baseline: {
          env: plan.env ?? {},
          tests: `${baselineTests.passed} passed, ${baselineTests.failed} failed${baselineTests.ran ? '' : ' (not run)'}`,
          fingerprint: reference?.fingerprint ?? '-',
        },
        tunes,
        winner,
        verdict,
        costProxy: target.emulated ? COST_PROXY_NONE : 'not needed: the target is native, time is measured',
      }),
      ...llmFields,
    };
  } finally {
    // the verified build goes back where the port left it; the other trees and profiles go
    await unstashTree(bench, BASELINE).catch(() => {});
    await dropTrees(bench, [bench.workDir, PGO_DIR, HARNESS_DIR]).catch(() => {});
  }
}

async function buildAndGate(
  bench: TuneWorkbench,
  base: BuildPlan,
  spec: TuneSpec,
  workload: Workload | null,
  reference: WorkloadRun | null,
  baselineTests: TestOutcome,
): Promise<TuneResult> {
  const started = Date.now();
  const result: TuneResult = {
    name: spec.name,
    description: spec.description,
    env: spec.plan ? tuneEnv(base, spec.plan) : {},
    status: 'failed',
    gates: [],
  };
  if (!spec.plan) return { ...result, status: 'not-built', reason: spec.notBuilt ?? 'not built' };
  const plan = spec.plan;
  const context = { ...bench.commandContext(plan), timeoutMs: bench.workloadTimeoutMs, signal: bench.signal };
  const failed = (detail: string) => {
    result.reason = detail;
    result.durationMs = Date.now() - started;
    return result;
  };
  if (spec.profilePlan) {
    if (!workload) return failed('PGO needs a workload to profile, and there is none');
    result.stages = [
      `instrumented build with ${JSON.stringify(tuneEnv(base, spec.profilePlan))}`,
      `profile run: ${workload.commands.join(' && ')}`,
      'optimised build with the profile',
    ];
    await bench.sandbox.run(['rm', '-rf', PGO_DIR], { signal: bench.signal });
    bench.progress(`performance mode: building ${spec.name} (instrumented)`);
    const instrumented = await bench.build(spec.profilePlan, `${spec.name}-generate`);
    if (!instrumented.ok) return failed(`the instrumented build failed: ${instrumented.reason}`);
    const profile = await runWorkload(bench.sandbox, workload, {
      ...bench.commandContext(spec.profilePlan),
      timeoutMs: bench.workloadTimeoutMs * 2,
      signal: bench.signal,
    });
    if (profile.timedOut) return failed('the profile run ran past the time limit');
    const written = await bench.sandbox.run(['find', PGO_DIR, '-name', '*.gcda'], { signal: bench.signal });
    const files =
      written.exitCode === 0 ? written.stdout.split('\n').filter((l) => l.endsWith('.gcda')).length : 0;
    if (files === 0) return failed('the profile run wrote no profile (no .gcda file)');
    result.stages[1] = `${result.stages[1]} (${files} profile files)`;
  }
  bench.progress(`performance mode: building ${spec.name}`);
  const built = await bench.build(plan, spec.name);
  result.gates.push({ name: 'build', passed: built.ok, detail: built.ok ? 'built' : built.reason });
  if (!built.ok) return failed(`build: ${built.reason}`);
  const artifacts = await gateArtifacts(bench, bench.artifacts, spec.requiredExtensions);
  result.gates.push(artifacts);
  if (!artifacts.passed) return failed(`artifacts: ${artifacts.detail}`);
  if (workload && reference) {
    const run = await runWorkload(bench.sandbox, workload, context);
    const gate = gateWorkload(reference.fingerprint, run.fingerprint);
    result.gates.push(gate);
    if (!gate.passed) return failed(`workload: ${gate.detail}`);
  }
  const tests = gateTests(baselineTests, await bench.runTests(plan));
  result.gates.push(tests);
  if (!tests.passed) return failed(`tests: ${tests.detail}`);
  result.status = 'gated';
  result.durationMs = Date.now() - started;
  return result;
}

async function timeAgainstBaseline(
  bench: TuneWorkbench,
  plans: ReadonlyMap<string, BuildPlan>,
  workload: Workload,
  tune: string,
  runs: number,
) {
  const timed = (name: string) => () =>
    withTree(bench, name, async () => {
      const plan = plans.get(name) ?? plans.get(BASELINE);
      const context = {
        ...bench.commandContext(plan as BuildPlan),
        timeoutMs: bench.workloadTimeoutMs,
        signal: bench.signal,
      };
      const run = await runWorkload(bench.sandbox, workload, context);
      if (run.exitCode !== 0 || run.timedOut)
        throw new Error(`a timed run of ${name} failed (exit ${run.exitCode})`);
      return run.durationMs;
    });
  return compareInterleaved(timed(BASELINE), timed(tune), runs);
}

const pct = (ratio: number | undefined) => `${((ratio ?? 1) * 100).toFixed(1)}%`;
