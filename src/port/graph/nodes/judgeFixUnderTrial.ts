import { appendFile } from 'node:fs/promises';
import type { Sandbox } from '../../../sandbox/index.ts';
import type { PortServices } from '../../run/PortServices.ts';
import type { BuildPlan, FixAttempt, PortState } from '../../state/PortState.ts';

export interface FixVerdict {
  /** What the state takes from the verdict (the trial ends; a rollback restores the patches). */
  context: Partial<PortState>;
  /** Set when the fix was rolled back: the plan before it, and which fix attempt it was. */
  rolledBack?: { plan: BuildPlan; fixIndex: number };
}

/**
 * An LLM fix is kept unless the build it was tried in failed earlier (`progress`) than the one it
 * fixed; then the plan, the patches and the sandbox go back to how they were before it.
 */
export async function judgeFixUnderTrial(
  state: PortState,
  progress: number,
  fixAttempts: readonly FixAttempt[],
  sandbox: Sandbox,
  svc: Pick<PortServices, 'buildLog' | 'progress'>,
): Promise<FixVerdict> {
  const trial = state.fixUnderTrial;
  if (!trial) return { context: {} };
  if (trial.baselineProgress === null || progress >= trial.baselineProgress)
    return { context: { fixUnderTrial: null } };
  const name = fixAttempts[trial.fixIndex]?.name;
  let note = 'the sandbox is as it was before the fix';
  if (trial.snapshot) {
    await sandbox.rollback(trial.snapshot).catch((e: Error) => {
      note = `the sandbox snapshot is gone (${e.message}); a fresh build starts clean anyway`;
    });
  }
  await appendFile(
    svc.buildLog,
    `\n### rvport: the fix "${name ?? '?'}" made the build fail earlier; rolled back (${note})\n`,
  );
  svc.progress({ type: 'note', message: `rolled back the fix "${name}": the build failed earlier` });
  return {
    context: { fixUnderTrial: null, patches: trial.patchesBefore },
    rolledBack: { plan: trial.planBefore, fixIndex: trial.fixIndex },
  };
}
