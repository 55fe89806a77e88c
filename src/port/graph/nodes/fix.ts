import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FunctionNode } from '../../../engine/index.ts';
import { lastCommandOutput, referencedExcerpts, referencedFiles } from '../../llm/failureContext.ts';
import { findFewShotExamples, renderFewShot } from '../../llm/fewShot.ts';
import { costCapReason } from '../../llm/llmUsage.ts';
import { type AcceptedFix, proposeFix } from '../../llm/proposeFix.ts';
import { patchFileName } from '../../patches/sourcePatches.ts';
import { installableOf, portServices } from '../../run/PortServices.ts';
import type { BuildPlan, FixAttempt, PlanPhase, PortState } from '../../state/PortState.ts';
import { BuildFixNode } from '../nodeNames.ts';
import { routeFixResult } from '../routes/routeFixResult.ts';
import { withAudit } from './audit.ts';
import { freshSource } from './buildSteps.ts';

/** Verified ports shown to the fixer, at most, and the tokens they may take. */
const FIXER_FEW_SHOT = 2;
const FIXER_FEW_SHOT_TOKENS = 800;

/**
 * Proposes and applies one fix with the LLM fixer (fixer role): an inspection round, then one
 * fix that the next build tries out — a patch on the fresh source, commands in the prepare step,
 * packages, environment — after a sandbox snapshot, rolled back if that build fails earlier.
 * Without an LLM there is no fix to try, and the port escalates as the seed says: the heuristics
 * already had their go.
 */
export const fixNode = FunctionNode<PortState>({
  targets: [BuildFixNode.build, '__end__'],
  then: (s) => routeFixResult(s.context),
  run: async (s, ctx) => {
    const svc = portServices(ctx.services);
    svc.progress({ type: 'node', node: BuildFixNode.fix });
    const state = s.context;
    const last = state.errors.at(-1);
    const what = `${last ? `the ${last.category} error` : 'the failure'}${last?.phase ? ` in the ${last.phase} phase` : ''}`;
    if (svc.llm.offline || !last || !state.plan) {
      const reason = `no fix available without an LLM: the recovery heuristics could not repair ${what}`;
      return {
        context: {
          buildStatus: 'ESCALATED',
          escalationReason: reason,
          audit: withAudit(state, BuildFixNode.fix, 'no fixer', reason),
        },
      };
    }

    const sandbox = await svc.sandbox.get();
    // Resumed in a new instance, the failed build's tree is gone: the fixer inspects the source.
    if (!existsSync(join(sandbox.workspace, 'src'))) await freshSource(state, sandbox, svc.home);
    const fromCommand = last.node === BuildFixNode.build && last.command !== undefined;
    const log = fromCommand ? await readFile(svc.buildLog, 'utf8').catch(() => '') : '';
    const output = fromCommand ? lastCommandOutput(log) : last.message;
    const files = await referencedExcerpts(
      join(sandbox.workspace, 'src'),
      referencedFiles(output, state.plan.dir),
    );
    const examples = await findFewShotExamples(svc.home, {
      imageId: svc.sandbox.imageId,
      buildSystem: state.plan.buildSystem,
      errorText: `${last.evidence ?? ''}\n${last.message}`,
      limit: FIXER_FEW_SHOT,
    });
    const fewShot = renderFewShot(examples, FIXER_FEW_SHOT_TOKENS);
    const turn = await proposeFix(
      state,
      { state, error: last, output, files, fewShot },
      {
        llm: svc.llm,
        sandbox,
        signal: ctx.signal,
        node: BuildFixNode.fix,
        installable: await installableOf(svc),
        log: (message) => svc.progress({ type: 'note', message }),
      },
    );
    const refusedCommands = [...(state.refusedCommands ?? []), ...turn.refused];
    const inspectedNote = turn.inspected.length
      ? `; inspected: ${turn.inspected.map((i) => i.command).join(' | ')}`
      : '';
    if (!turn.fix) {
      const reason = turn.costCapReached
        ? costCapReason(turn.llm, state.options.costCapUsd)
        : `the LLM fixer could not repair ${what}: ${turn.reason}`;
      return {
        context: {
          llm: turn.llm,
          refusedCommands,
          buildStatus: 'ESCALATED',
          escalationReason: reason,
          audit: withAudit(state, BuildFixNode.fix, 'no fix', `${reason}${inspectedNote}`),
        },
      };
    }

    const fix = turn.fix;
    const snapshot = await sandbox.snapshot();
    const patches = fix.patch
      ? [
          ...state.patches,
          { name: patchFileName(state.patches.length, fix.answer.summary), diff: fix.patch.diff },
        ]
      : state.patches;
    const attempt: FixAttempt = {
      at: new Date().toISOString(),
      attempt: state.attemptCount,
      source: 'llm',
      name: fix.answer.summary,
      description: fix.answer.diagnosis,
      ...(fix.commands.length ? { commands: fix.commands } : {}),
      ...(fix.patch ? { patch: patches.at(-1)?.name as string } : {}),
      outcome: 'applied',
    };
    return {
      context: {
        plan: planWithFix(state.plan, fix),
        patches,
        fixAttempts: [...state.fixAttempts, attempt],
        fixUnderTrial: {
          fixIndex: state.fixAttempts.length,
          baselineProgress: last.progress ?? null,
          planBefore: state.plan,
          patchesBefore: state.patches,
          snapshot: { id: snapshot.id, createdAt: snapshot.createdAt },
        },
        llm: turn.llm,
        refusedCommands,
        buildStatus: 'FIXING',
        audit: withAudit(
          state,
          BuildFixNode.fix,
          'fix proposed',
          `${fix.answer.summary}${fix.patch ? ` (patch: ${fix.patch.files.join(', ')})` : ''}${inspectedNote}`,
        ),
      },
    };
  },
});

/** The plan with a fix's packages, environment and prepare commands added. */
export function planWithFix(plan: BuildPlan, fix: AcceptedFix): BuildPlan {
  const phases: PlanPhase[] = plan.phases.map((p) => ({ ...p, commands: [...p.commands] }));
  if (fix.commands.length) {
    const prepare = phases.find((p) => p.name === 'prepare');
    if (prepare) prepare.commands.push(...fix.commands);
    else phases.unshift({ name: 'prepare', commands: [...fix.commands] });
  }
  const env = { ...(plan.env ?? {}), ...fix.env };
  return {
    ...plan,
    phases,
    packages: [...new Set([...plan.packages, ...fix.packages])],
    ...(Object.keys(env).length ? { env } : {}),
  };
}
