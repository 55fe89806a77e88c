import { userInfo } from 'node:os';
import { rvportHome } from '../config/rvportHome.ts';
import { DEFAULT_DEBIAN_SUITE } from '../debian/debianMirror.ts';
import { findImages } from '../sandbox/index.ts';
import { evaluateCgroups, gatherCgroupFacts } from './cgroupCheck.ts';
import type { DoctorCheck } from './DoctorCheck.ts';
import { evaluateHome, gatherHomeFacts } from './homeCheck.ts';
import { evaluateHostConcern, gatherHostFacts } from './hostConcern.ts';
import { evaluateImages } from './imagesCheck.ts';
import { evaluateKernel, gatherKernelFacts } from './kernelCheck.ts';
import { evaluateLlm, gatherLlmFacts } from './llmCheck.ts';
import { evaluateMirror, gatherMirrorFacts } from './mirrorCheck.ts';
import { evaluateQueue, gatherQueueFacts } from './queueCheck.ts';

export interface DoctorContext {
  env: NodeJS.ProcessEnv;
  home: string;
  suite: string;
  user: string;
  /** The mirror a port was given (`--mirror`); the apt configuration's otherwise. */
  mirror?: string;
  /** `--queue URL`; RVPORT_QUEUE_URL otherwise; no queue check without either. */
  queueUrl?: string;
  /**
   * Checked before a port's provisioning: as root on Debian the host's packages, ids and
   * binfmt_misc registration are set up by the provisioning itself, so their absence is no failure.
   */
  beforeProvisioning?: boolean;
}

export interface DoctorConcern {
  name: string;
  /** A port cannot start without it (the others warn or inform). */
  neededForPort: boolean;
  /** Gathers the facts, then evaluates them with the concern's pure function. */
  run(ctx: DoctorContext): Promise<DoctorCheck[]>;
}

/** Every host requirement, in the order a person would fix them. */
export const DOCTOR_CONCERNS: readonly DoctorConcern[] = [
  { name: 'kernel', neededForPort: true, run: async () => evaluateKernel(await gatherKernelFacts()) },
  {
    name: 'host',
    neededForPort: true,
    run: async (ctx) => {
      const facts = await gatherHostFacts(ctx.env);
      if (ctx.beforeProvisioning && facts.isRoot && facts.hasApt) return [];
      return evaluateHostConcern(facts);
    },
  },
  { name: 'cgroups', neededForPort: false, run: async () => evaluateCgroups(await gatherCgroupFacts()) },
  {
    name: 'rvport-home',
    neededForPort: true,
    run: async (ctx) => evaluateHome(await gatherHomeFacts({ ...ctx.env, RVPORT_HOME: ctx.home }, ctx.user)),
  },
  {
    name: 'debian-mirror',
    neededForPort: true,
    run: async (ctx) =>
      evaluateMirror(
        await gatherMirrorFacts(ctx.env, { suite: ctx.suite, ...(ctx.mirror ? { mirror: ctx.mirror } : {}) }),
      ),
  },
  {
    name: 'images',
    neededForPort: false,
    run: async (ctx) => evaluateImages(await findImages(ctx.home, ctx.suite)),
  },
  {
    name: 'llm',
    neededForPort: false,
    run: async (ctx) => evaluateLlm(await gatherLlmFacts(ctx.env, ctx.home)),
  },
  {
    name: 'queue',
    neededForPort: false,
    run: async (ctx) => evaluateQueue(await gatherQueueFacts(ctx.env, ctx.queueUrl)),
  },
];

export function doctorContext(
  env: NodeJS.ProcessEnv = process.env,
  extra: Partial<Omit<DoctorContext, 'env'>> = {},
): DoctorContext {
  return {
    env,
    home: rvportHome(env),
    suite: DEFAULT_DEBIAN_SUITE,
    user: userInfo().username,
    ...extra,
  };
}

/**
 * Runs the concerns side by side (the mirror and the LLM wait on the network) and returns their
 * checks in the list's order. A concern whose probe fails outright is one failed line, not a crash.
 */
export async function runDoctor(
  ctx: DoctorContext,
  concerns: readonly DoctorConcern[] = DOCTOR_CONCERNS,
): Promise<DoctorCheck[]> {
  const results = await Promise.all(
    concerns.map((c) =>
      c.run(ctx).catch((error: unknown): DoctorCheck[] => [
        {
          id: c.name,
          status: c.neededForPort ? 'fail' : 'warn',
          detail: `could not check ${c.name}: ${error instanceof Error ? error.message : String(error)}`,
        },
      ]),
    ),
  );
  return results.flat();
}

/**
 * What a port checks before it provisions the sandbox: the concerns it cannot start without. The
 * mirror only when a tree is to be bootstrapped from it (a missing layer is built from the trees).
 */
export function portPreflight(ctx: DoctorContext, options: { needsMirror: boolean }): Promise<DoctorCheck[]> {
  return runDoctor(
    { ...ctx, beforeProvisioning: true },
    DOCTOR_CONCERNS.filter((c) => c.neededForPort && (options.needsMirror || c.name !== 'debian-mirror')),
  );
}
