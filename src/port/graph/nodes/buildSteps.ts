/** The steps of a build in the sandbox, shared by the build node and ensureBuildTree. */
import { appendFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeRunContext } from '../../../engine/index.ts';
import { runProcess } from '../../../process/runProcess.ts';
import { SANDBOX_WORKSPACE, type Sandbox, type SandboxRunResult } from '../../../sandbox/index.ts';
import { splitDebianPatches } from '../../patches/debianPatches.ts';
import { applyPatches } from '../../patches/sourcePatches.ts';
import type { PortServices } from '../../run/PortServices.ts';
import type { BuildPlan, ErrorRecord, ExecutedCommand, PortState } from '../../state/PortState.ts';
import { copyDependenciesIn } from '../../steps/copyDependenciesIn.ts';
import { normalizeAutotoolsTimestamps } from '../../steps/normalizeTimestamps.ts';
import { planCommandContext } from '../../steps/planFromAnalysis.ts';
import { BuildFixNode } from '../nodeNames.ts';
import { makeError } from './recordError.ts';

/** Phases the build runs, in order; tests run once in finish, never as part of the build. */
export const BUILD_PHASE_ORDER = ['prepare', 'bootstrap', 'configure', 'build', 'install'];
export const BUILD_PHASES = new Set(BUILD_PHASE_ORDER);

/**
 * Copies the acquired source into the instance (`/build/src`), replacing what a build left there.
 * The copy is prepared in a host folder of rvport's own (timestamps, patches) and goes in through
 * the sandbox's copy-in: the host never writes into the workspace a build has had in its hands.
 */
export async function freshSource(state: PortState, sandbox: Sandbox, home: string): Promise<void> {
  if (!state.source.dir) throw new Error('the source was not acquired');
  // Debian's patches first, as released: the shipped generated files stay newer than inputs
  // they patch. The port's own fixes after the timestamps: a patched file is newer than what
  // was generated from it, as after an edit.
  const { debian, rest } = splitDebianPatches(state.patches);
  await copySourceIn(state.source.dir, sandbox, async (target) => {
    await applyPatches(target, debian);
    await normalizeAutotoolsTimestamps(target, state.plan?.dir ?? '.');
    await applyPatches(target, rest);
  });
  if (state.fetchedDependencies) await copyDependenciesIn(state.fetchedDependencies, home, sandbox);
}

/**
 * A copy of an acquired source tree as the instance's `/build/src` (and an empty `/build/dest`),
 * changed by `prepare` on the way (freshSource's patches; nothing for `rvport replay`, whose
 * build.sh does that itself). The copy is made in a host folder of rvport's own and goes in
 * through the sandbox's copy-in: the host never writes into a workspace a build has had.
 */
export async function copySourceIn(
  sourceDir: string,
  sandbox: Sandbox,
  prepare: (target: string) => Promise<void> = async () => {},
): Promise<void> {
  const staging = await mkdtemp(join(tmpdir(), 'rvport-source-'));
  const target = join(staging, 'src');
  try {
    await mkdir(target);
    const copy = await runProcess({
      command: ['cp', '-a', '--reflink=auto', '--', `${sourceDir}/.`, target],
    });
    if (copy.exitCode !== 0)
      throw new Error(`copying the source into the sandbox failed: ${copy.stderr.trim()}`);
    await prepare(target);
    const cleared = await sandbox.run(['rm', '-rf', '--', `${SANDBOX_WORKSPACE}/dest`]);
    if (cleared.exitCode !== 0) throw new Error(`clearing /build/dest failed: ${cleared.stderr.trim()}`);
    await sandbox.copyIn(target, `${SANDBOX_WORKSPACE}/src`);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export async function runLogged(
  svc: PortServices,
  sandbox: Sandbox,
  plan: BuildPlan,
  phase: string,
  command: string,
  ctx: NodeRunContext,
): Promise<SandboxRunResult> {
  const { cwd, env } = planCommandContext(plan);
  await appendFile(svc.buildLog, `\n### [${phase}] (in ${cwd}) $ ${command}\n`);
  const result = await sandbox.run(command, {
    cwd,
    env,
    timeoutMs: svc.commandTimeoutMs,
    logFile: svc.buildLog,
    signal: ctx.signal,
    onStdout: (chunk) => lastLine(svc, chunk),
    onStderr: (chunk) => lastLine(svc, chunk),
  });
  await appendFile(svc.buildLog, exitLine(result));
  return result;
}

/** The line that closes a logged command in build.log (bench/step-times.ts reads it). */
export function exitLine(result: Pick<SandboxRunResult, 'exitCode' | 'timedOut' | 'durationMs'>): string {
  return `### exit ${result.exitCode}${result.timedOut ? ' (time limit)' : ''} after ${(result.durationMs / 1000).toFixed(1)} s\n`;
}

/**
 * Runs the build phases of a plan that built before (no heuristic, no fixer): each command in
 * order, logged; the first command of a phase that may not fail and fails is the answer.
 */
export async function rerunPlanPhases(
  svc: PortServices,
  sandbox: Sandbox,
  plan: BuildPlan,
  ctx: NodeRunContext,
): Promise<{ command: string; result: SandboxRunResult } | null> {
  for (const phase of plan.phases.filter((p) => BUILD_PHASES.has(p.name))) {
    for (const command of phase.commands) {
      svc.progress({ type: 'phase', phase: phase.name, command });
      const result = await runLogged(svc, sandbox, plan, phase.name, command, ctx);
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('interrupted');
      if (result.exitCode !== 0 && !phase.optional) return { command, result };
    }
  }
  return null;
}

function lastLine(svc: PortServices, chunk: Buffer): void {
  const line = chunk.toString().trimEnd().split('\n').at(-1);
  if (line) svc.progress({ type: 'output', line });
}

export async function installPackages(
  svc: PortServices,
  sandbox: Sandbox,
  packages: readonly string[],
  ctx: NodeRunContext,
): Promise<{ record: Omit<ExecutedCommand, 'attempt'>; error?: ErrorRecord } | null> {
  if (packages.length === 0) return null;
  const command = `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  svc.progress({ type: 'phase', phase: 'packages', command });
  await appendFile(svc.buildLog, `\n### [packages] $ ${command}\n`);
  const result = await sandbox.installPackages(packages, {
    logFile: svc.buildLog,
    signal: ctx.signal,
    timeoutMs: svc.commandTimeoutMs,
  });
  await appendFile(svc.buildLog, exitLine(result));
  const record = {
    phase: 'packages',
    command,
    exitCode: result.exitCode,
    durationMs: Math.round(result.durationMs),
    origin: 'plan' as const,
  };
  if (result.exitCode === 0) return { record };
  const output = `${result.stdout}\n${result.stderr}`;
  return {
    record,
    error: makeError({
      node: BuildFixNode.build,
      phase: 'packages',
      command,
      output,
      exitCode: result.exitCode,
      category: 'DEPENDENCY',
    }),
  };
}
