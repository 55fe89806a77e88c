import { appendFile } from 'node:fs/promises';
import { chooseBuildDepends } from '../../../debian/chooseBuildDepends.ts';
import type { NodeRunContext } from '../../../engine/index.ts';
import type { Sandbox, SandboxSnapshot } from '../../../sandbox/index.ts';
import { installableOf, type PortServices } from '../../run/PortServices.ts';
import type { BuildPlan, DebianKnowledge, ExecutedCommand, PortState } from '../../state/PortState.ts';
import { installWhatInstalls } from '../../steps/installWhatInstalls.ts';
import { exitLine } from './buildSteps.ts';

export interface BuildDependsStep {
  /** The plan with the Build-Depends that installed added to its packages. */
  plan: BuildPlan;
  debian: DebianKnowledge;
  records: Omit<ExecutedCommand, 'attempt'>[];
}

/**
 * Installs Debian's Build-Depends of a `debian:` source that the plan does not have yet, after
 * the plan's own packages. They are a help, never a condition: an install that fails is undone
 * (the sandbox goes back to a snapshot) and narrowed down, the packages that break it are left
 * out and the build goes on with what it would have had without them. Those that installed join
 * the plan's packages, so a rebuild, the recipe and a resumed port install them up front; those
 * left out are recorded and not tried again. Null when there is nothing to do.
 */
export async function installBuildDepends(
  svc: PortServices,
  sandbox: Sandbox,
  state: Pick<PortState, 'debian'>,
  plan: BuildPlan,
  ctx: NodeRunContext,
): Promise<BuildDependsStep | null> {
  const known = state.debian;
  if (!known || known.buildDepends.length === 0) return null;
  const { packages, unavailable } = chooseBuildDepends(known.buildDepends, await installableOf(svc));
  const settled = new Set([...plan.packages, ...known.leftOut.map((l) => l.name)]);
  const pending = packages.filter((p) => !settled.has(p));
  const missing = unavailable.filter((name) => !settled.has(name));
  if (pending.length === 0 && missing.length === 0) return null;

  const records: BuildDependsStep['records'] = [];
  const leftOut = [
    ...known.leftOut,
    ...missing.map((name) => ({ name, reason: "no alternative is in the sandbox's package lists" })),
  ];
  let snapshot: SandboxSnapshot | null = null;
  let broken: string | null = null;
  const tryInstall = async (group: readonly string[]): Promise<boolean> => {
    if (broken) return false;
    try {
      snapshot ??= await sandbox.snapshot();
    } catch (error) {
      broken = `no sandbox snapshot to undo a failed install (${(error as Error).message})`;
      return false;
    }
    const command = `apt-get install -y --no-install-recommends ${group.join(' ')}`;
    svc.progress({ type: 'phase', phase: 'packages', command });
    await appendFile(svc.buildLog, `\n### [packages] (Debian's Build-Depends) $ ${command}\n`);
    const result = await sandbox.installPackages(group, {
      logFile: svc.buildLog,
      signal: ctx.signal,
      timeoutMs: svc.commandTimeoutMs,
    });
    if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('interrupted');
    await appendFile(svc.buildLog, exitLine(result));
    const ok = result.exitCode === 0;
    records.push({
      phase: 'packages',
      command,
      exitCode: result.exitCode,
      durationMs: Math.round(result.durationMs),
      origin: 'plan',
    });
    if (ok) {
      snapshot = null; // the next try starts from this state
      return true;
    }
    await appendFile(svc.buildLog, '\n### rvport: the install failed; the sandbox goes back to before it\n');
    try {
      await sandbox.rollback(snapshot);
    } catch (error) {
      broken = `the sandbox could not be put back after a failed install (${(error as Error).message})`;
    }
    return false;
  };
  const result = await installWhatInstalls(pending, tryInstall);
  const reason = (name: string) =>
    broken ??
    (result.leftOut.includes(name)
      ? 'its install failed in the sandbox'
      : 'not tried: too many failed installs');
  leftOut.push(...[...result.leftOut, ...result.untried].map((name) => ({ name, reason: reason(name) })));
  if (leftOut.length > known.leftOut.length)
    svc.progress({
      type: 'note',
      message: `left out ${leftOut.length - known.leftOut.length} of Debian's Build-Depends: ${leftOut
        .slice(known.leftOut.length)
        .map((l) => l.name)
        .join(', ')}`,
    });
  return {
    plan: { ...plan, packages: [...new Set([...plan.packages, ...result.installed])].sort() },
    debian: { ...known, installed: [...new Set([...known.installed, ...result.installed])], leftOut },
    records,
  };
}
