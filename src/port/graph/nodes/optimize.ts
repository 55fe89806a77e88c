import { appendFile } from 'node:fs/promises';
import { posix } from 'node:path';
import type { NodeRunContext } from '../../../engine/index.ts';
import { END, FunctionNode } from '../../../engine/index.ts';
import type { OptimizationReport } from '../../../optimize/OptimizationReport.ts';
import { probeTarget } from '../../../optimize/probeTarget.ts';
import { runOptimization } from '../../../optimize/runOptimization.ts';
import type { GatedArtifact, TuneWorkbench } from '../../../optimize/TuneWorkbench.ts';
import { hostQemuVersion } from '../../../probe/hostQemuVersion.ts';
import { SANDBOX_WORKSPACE, type Sandbox } from '../../../sandbox/index.ts';
import { withLlmUsage } from '../../llm/llmUsage.ts';
import { type PortServices, portServices } from '../../run/PortServices.ts';
import type { PortState } from '../../state/PortState.ts';
import {
  artifactLocation,
  planCommandContext,
  SANDBOX_DEST,
  SANDBOX_SRC,
} from '../../steps/planFromAnalysis.ts';
import { runPackageTests } from '../../steps/runPackageTests.ts';
import { PortNode } from '../nodeNames.ts';
import { withAudit } from './audit.ts';
import { freshSource, rerunPlanPhases } from './buildSteps.ts';
import { ensureBuildTree } from './ensureBuildTree.ts';

/** Roles of the artifacts every tune must build again. */
const GATED_ROLES = new Set(['program', 'shared-library', 'static-library']);

/**
 * Performance mode (--optimize), after a verified finish: wires the capability of src/optimize
 * to the port's sandbox, build steps and tests. It never changes the result of the port: a
 * failure of performance mode is recorded in the report and the port stays what it was (only an
 * interrupt goes on, so the run stays resumable). A resumed run does the whole mode again (its
 * trees were in the instance that is gone); the verified build is in the build folders after it.
 */
export const optimizeNode = FunctionNode<PortState>({
  then: END,
  run: async (s, ctx) => {
    const svc = portServices(ctx.services);
    svc.progress({ type: 'node', node: PortNode.optimize });
    const state = s.context;
    if (state.verification?.verdict !== 'verified' || !state.plan) {
      const why = 'the port is not verified';
      return {
        context: {
          optimization: skipped(why),
          audit: withAudit(state, PortNode.optimize, 'skipped', why),
        },
      };
    }
    const started = Date.now();
    let report: OptimizationReport;
    let update: Partial<PortState> = {};
    try {
      const sandbox = await svc.sandbox.get();
      const rebuilt = await ensureBuildTree(svc, sandbox, state, ctx, PortNode.optimize);
      const current = { ...state, ...rebuilt };
      const outcome = await runOptimization(workbench(svc, sandbox, current, ctx), state.plan);
      report = outcome.report;
      update = {
        ...rebuilt,
        ...(outcome.llm ? { llm: withLlmUsage(state.llm, outcome.llm) } : {}),
        ...(outcome.refused
          ? {
              refusedCommands: [
                ...state.refusedCommands,
                { at: new Date().toISOString(), node: PortNode.optimize, ...outcome.refused },
              ],
            }
          : {}),
      };
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      const message = (error as Error).message ?? String(error);
      report = {
        ...skipped(message),
        status: 'failed',
        verdict: 'no tune was measured',
        durationMs: Date.now() - started,
      };
    }
    const summary =
      report.status === 'done'
        ? `${report.tunes.filter((t) => t.status === 'gated').length} of ${report.tunes.length} tunes passed their gates; ${report.verdict}`
        : `${report.status}: ${report.reason ?? ''}`;
    return {
      context: {
        ...update,
        optimization: report,
        timings: { ...state.timings, optimize: Date.now() - started },
        audit: withAudit(
          { ...state, ...update },
          PortNode.optimize,
          report.status === 'done' ? 'optimized' : report.status,
          summary,
        ),
      },
    };
  },
});

function skipped(reason: string): OptimizationReport {
  return {
    status: 'skipped',
    reason,
    tunes: [],
    winner: null,
    verdict: 'no tune was built',
    costProxy: '-',
    notes: [],
    durationMs: 0,
  };
}

function insideOf(path: string): string {
  const { folder, rel } = artifactLocation(path);
  return posix.join(folder === 'dest' ? SANDBOX_DEST : SANDBOX_SRC, rel);
}

function workbench(
  svc: PortServices,
  sandbox: Sandbox,
  state: PortState,
  ctx: NodeRunContext,
): TuneWorkbench {
  const riscv = [...state.artifacts]
    .filter((a) => a.machine === 'riscv64' && GATED_ROLES.has(a.role))
    .sort((a, b) => a.rank - b.rank);
  const artifacts: GatedArtifact[] = riscv.map((a) => ({ path: a.path, inside: insideOf(a.path) }));
  const buildDir = planCommandContext(state.plan).cwd;
  return {
    sandbox,
    probe: async () =>
      probeTarget(sandbox, { qemuVersion: await hostQemuVersion(ctx.signal), signal: ctx.signal }),
    async build(plan, label) {
      await appendFile(svc.buildLog, `\n### rvport: performance mode: building ${label}\n`);
      try {
        await freshSource({ ...state, plan }, sandbox, svc.home);
        const failed = await rerunPlanPhases(svc, sandbox, plan, ctx);
        if (!failed) return { ok: true };
        const last = `${failed.result.stderr}\n${failed.result.stdout}`.trim().split('\n').at(-1) ?? '';
        return {
          ok: false,
          reason: `\`${failed.command}\` failed (exit ${failed.result.exitCode})${last ? `: ${last.slice(0, 200)}` : ''}`,
        };
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        return { ok: false, reason: (error as Error).message };
      }
    },
    runTests: (plan) =>
      runPackageTests(sandbox, {
        plan,
        ...(state.source.dir ? { sourceDir: state.source.dir } : {}),
        timeoutMs: svc.testTimeoutMs,
        logFile: svc.buildLog,
        signal: ctx.signal,
        onCommand: (command) => svc.progress({ type: 'phase', phase: 'test', command }),
      }),
    commandContext: (plan) => planCommandContext(plan),
    artifacts,
    programs: riscv
      .filter((a) => a.role === 'program')
      .map((a) => {
        const inside = insideOf(a.path);
        return inside.startsWith(`${buildDir}/`) ? `./${posix.relative(buildDir, inside)}` : inside;
      }),
    packageName: state.source.name,
    srcDir: SANDBOX_SRC,
    destDir: SANDBOX_DEST,
    workDir: `${SANDBOX_WORKSPACE}/rvport-tunes`,
    llm: svc.llm,
    workloadTimeoutMs: svc.testTimeoutMs,
    progress: (message) => svc.progress({ type: 'note', message }),
    signal: ctx.signal,
  };
}
