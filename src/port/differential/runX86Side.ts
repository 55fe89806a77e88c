import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NodeRunContext } from '../../engine/index.ts';
import {
  createX86Sandbox,
  ensureX86Rootfs,
  imageKeys,
  readImageRecord,
  sandboxPaths,
} from '../../sandbox/index.ts';
import { BUILD_PHASES, freshSource, installPackages, runLogged } from '../graph/nodes/buildSteps.ts';
import type { PortServices } from '../run/PortServices.ts';
import type { PortState } from '../state/PortState.ts';
import { runPackageTests } from '../steps/runPackageTests.ts';
import { smokePrograms, smokeRunPrograms } from '../steps/smokeRunPrograms.ts';
import { x86Plan } from './x86Plan.ts';

/** The x86_64 side's log in OUT/NAME (build.log is the riscv64 side's). */
export const DIFFERENTIAL_LOG = 'differential.log';

export interface X86SideResult {
  /** Why the x86_64 side has no test results (provisioning or its build failed); absent: it has. */
  error?: string;
  tests: PortState['tests'];
  smokeTests: PortState['smokeTests'];
  provisionMs: number;
  buildMs: number;
  testMs: number;
}

/**
 * Builds the port's plan (made neutral for x86_64) in a fresh instance of the amd64 build root,
 * provisioned on first use, then runs the same tests and smoke commands there. Every command of
 * it goes to differential.log.
 */
export async function runX86Side(
  svc: PortServices,
  state: PortState,
  ctx: NodeRunContext,
): Promise<X86SideResult> {
  const log = join(svc.outDir, DIFFERENTIAL_LOG);
  const side: PortServices = { ...svc, buildLog: log };
  const note = (message: string) => svc.progress({ type: 'note', message });
  const empty = { tests: null, smokeTests: [], buildMs: 0, testMs: 0 };
  let provisionMs = 0;
  const suite = svc.suite;
  if (!(await readImageRecord(sandboxPaths(svc.home), imageKeys(suite).x86Rootfs))) {
    note('differential tests: provisioning the x86_64 build root (first use only; a few minutes)');
    const started = Date.now();
    try {
      await ensureX86Rootfs({
        home: svc.home,
        suite,
        ...(svc.mirror ? { mirror: svc.mirror } : {}),
        signal: ctx.signal,
        onProgress: note,
      });
    } catch (error) {
      return {
        ...empty,
        provisionMs: Date.now() - started,
        error: `the x86_64 build root could not be provisioned: ${(error as Error).message}`,
      };
    }
    provisionMs = Date.now() - started;
  }
  if (!state.plan) return { ...empty, provisionMs, error: 'the port has no plan' };
  const plan = x86Plan(state.plan);
  const sandbox = await createX86Sandbox({ home: svc.home, suite });
  try {
    const buildStarted = Date.now();
    await appendFile(log, `### rvport: the port's plan for x86_64 in ${sandbox.id}\n`);
    await freshSource({ ...state, plan }, sandbox, svc.home);
    const installed = await installPackages(side, sandbox, plan.packages, ctx);
    if (installed?.error)
      return {
        ...empty,
        provisionMs,
        buildMs: Date.now() - buildStarted,
        error: `the packages do not install on x86_64: ${installed.error.message.split('\n')[0]}`,
      };
    for (const phase of plan.phases.filter((p) => BUILD_PHASES.has(p.name))) {
      for (const command of phase.commands) {
        svc.progress({ type: 'phase', phase: `x86_64 ${phase.name}`, command });
        const result = await runLogged(side, sandbox, plan, phase.name, command, ctx);
        if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('interrupted');
        if (result.exitCode !== 0 && !phase.optional)
          return {
            ...empty,
            provisionMs,
            buildMs: Date.now() - buildStarted,
            error: `the x86_64 build failed at \`${command}\` (exit ${result.exitCode}; see ${DIFFERENTIAL_LOG})`,
          };
      }
    }
    const buildMs = Date.now() - buildStarted;
    const testStarted = Date.now();
    const tests = await runPackageTests(sandbox, {
      plan,
      timeoutMs: svc.testTimeoutMs,
      logFile: log,
      signal: ctx.signal,
      onCommand: (command) => svc.progress({ type: 'phase', phase: 'x86_64 test', command }),
    });
    const smokeTests = await smokeRunPrograms(sandbox, smokePrograms(state.artifacts), {
      signal: ctx.signal,
      onCommand: (command) => svc.progress({ type: 'phase', phase: 'x86_64 smoke', command }),
    });
    return { tests, smokeTests, provisionMs, buildMs, testMs: Date.now() - testStarted };
  } finally {
    await sandbox.destroy().catch(() => {});
  }
}
