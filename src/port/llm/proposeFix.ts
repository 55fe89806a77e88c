import { tmpdir } from 'node:os';
import { reviewPackageNames } from '../../debian/reviewPackageNames.ts';
import {
  guardDiffInTree,
  type LlmClient,
  type LlmMessage,
  type LlmResult,
  reviewProposedCommands,
} from '../../llm/index.ts';
import type { Sandbox } from '../../sandbox/index.ts';
import { canonicalPatch, type SourcePatch } from '../patches/sourcePatches.ts';
import type { LlmUsageTotals, PortState, RefusedCommand } from '../state/PortState.ts';
import { planCommandContext } from '../steps/planFromAnalysis.ts';
import {
  describeFailure,
  describeInspection,
  FIX_SYSTEM,
  type FixAnswer,
  type FixerFacts,
  fixAnswerSchema,
  INSPECTION_SYSTEM,
  inspectionAnswerSchema,
} from './fixerPrompt.ts';
import { withLlmUsage } from './llmUsage.ts';

/** Time limit of one read-only inspection command. */
export const INSPECTION_TIMEOUT_MS = 30_000;
/** Bytes of an inspection command's output kept (the prompt clips further). */
const INSPECTION_OUTPUT_BYTES = 32 * 1024;
/** Fix proposals one fixer turn asks for: the first, and one more after a refusal says why. */
export const MAX_FIX_PROPOSALS = 2;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * Variables a fix may not set: they would change which programs run or where the build writes.
 * The plan's environment is also the inspection round's, so this includes the variables that make
 * a read-only tool run a program: git's (GIT_PAGER, GIT_EXTERNAL_DIFF, GIT_CONFIG_*), tar's and
 * ripgrep's default options, less's preprocessor, apt's configuration, gcc's program directories,
 * interpreter start-up code.
 */
const PROTECTED_ENV =
  /^(PATH|LD_[A-Z_]+|HOME|SHELL|IFS|ENV|BASH_ENV|TMPDIR|DESTDIR|RVPORT_[A-Z_]*|GIT_[A-Z_]*|TAR_OPTIONS|RIPGREP_CONFIG_PATH|LESS[A-Z_]*|PAGER|MANPAGER|APT_CONFIG|GCC_EXEC_PREFIX|COMPILER_PATH|PERL5OPT|PERL5DB|PYTHONSTARTUP|PYTHONINSPECT|NODE_OPTIONS|GCONV_PATH|PS4|PROMPT_COMMAND|GREP_OPTIONS)$/;

/** A fix that passed every check, ready to be tried by the next build. */
export interface AcceptedFix {
  answer: FixAnswer;
  /** The canonical git diff, or null without a patch. */
  patch: (SourcePatch & { files: string[] }) | null;
  commands: string[];
  packages: string[];
  env: Record<string, string>;
}

export interface FixerTurn {
  /** The accepted fix, or null with the reason none could be had. */
  fix: AcceptedFix | null;
  reason: string;
  llm: LlmUsageTotals;
  refused: RefusedCommand[];
  inspected: { command: string; exitCode: number; output: string }[];
  costCapReached: boolean;
}

export interface FixerDeps {
  llm: LlmClient;
  sandbox: Sandbox;
  signal: AbortSignal;
  node: string;
  /** Where throwaway copies of the source are made to check a patch. */
  scratchDir?: string;
  /** What apt in the sandbox can install; null or absent: package names are checked by form only. */
  installable?: ReadonlySet<string> | null;
  log?: (line: string) => void;
}

/**
 * One fixer turn (SPEC 7): one round of at most four read-only commands the model asks for,
 * then one fix, checked before anything runs — commands through the guard, the diff through the
 * diff guard and `git apply` on a copy of the source, package and variable names by shape. A
 * refused proposal is answered once with the reasons; every refusal is recorded.
 */
export async function proposeFix(state: PortState, facts: FixerFacts, deps: FixerDeps): Promise<FixerTurn> {
  let llm = state.llm;
  const refused: RefusedCommand[] = [];
  const refuse = (command: string, reason: string) =>
    refused.push({ at: new Date().toISOString(), node: deps.node, command, reason });
  const stop = (reason: string, result?: LlmResult): FixerTurn => ({
    fix: null,
    reason,
    llm,
    refused,
    inspected,
    costCapReached: result?.outcome === 'cost_cap',
  });
  const inspected: FixerTurn['inspected'] = [];
  const failure = describeFailure(facts);

  const inspection = await deps.llm.complete({
    role: 'fixer',
    system: INSPECTION_SYSTEM,
    messages: [{ role: 'user', content: failure }],
    schema: inspectionAnswerSchema,
    schemaName: 'inspection',
    signal: deps.signal,
  });
  llm = withLlmUsage(llm, inspection);
  if (
    inspection.outcome === 'cost_cap' ||
    inspection.outcome === 'offline' ||
    inspection.outcome === 'aborted'
  )
    return stop(`the fixer could not be asked (${inspection.outcome})`, inspection);
  if (inspection.ok && inspection.value) {
    const review = reviewProposedCommands(inspection.value.commands, { mode: 'inspect' });
    for (const r of review.refused) refuse(r.command, r.reason);
    for (const command of review.allowed) {
      deps.log?.(`fixer inspects: ${command}`);
      const result = await deps.sandbox.run(command, {
        ...planCommandContext(state.plan),
        timeoutMs: INSPECTION_TIMEOUT_MS,
        signal: deps.signal,
      });
      const output = `${result.stdout}${result.stderr ? `\n${result.stderr}` : ''}`.slice(
        0,
        INSPECTION_OUTPUT_BYTES,
      );
      inspected.push({ command, exitCode: result.exitCode, output });
    }
  }

  const messages: LlmMessage[] = [
    { role: 'user', content: [failure, describeInspection(inspected)].filter(Boolean).join('\n\n') },
  ];
  let lastReason = 'no fix was proposed';
  for (let proposal = 0; proposal < MAX_FIX_PROPOSALS; proposal++) {
    const result = await deps.llm.complete({
      role: 'fixer',
      system: FIX_SYSTEM,
      messages,
      schema: fixAnswerSchema,
      schemaName: 'fix',
      signal: deps.signal,
    });
    llm = withLlmUsage(llm, result);
    if (!result.ok || !result.value)
      return stop(
        `the fixer gave no usable answer (${result.outcome}${result.error ? `: ${result.error.message.split('\n')[0]}` : ''})`,
        result,
      );
    const checked = await checkFix(state, result.value, deps, refuse);
    if ('fix' in checked)
      return { fix: checked.fix, reason: 'accepted', llm, refused, inspected, costCapReached: false };
    lastReason = checked.refusal;
    deps.log?.(`fixer proposal refused: ${checked.refusal}`);
    messages.push(
      { role: 'assistant', content: result.text },
      {
        role: 'user',
        content: `rvport refused that fix: ${checked.refusal}\nPropose a different fix that avoids this, in the same JSON form.`,
      },
    );
  }
  return stop(`the fixer's proposals were refused: ${lastReason}`);
}

async function checkFix(
  state: PortState,
  answer: FixAnswer,
  deps: FixerDeps,
  refuse: (command: string, reason: string) => void,
): Promise<{ fix: AcceptedFix } | { refusal: string }> {
  const commands = answer.commands.map((c) => c.trim()).filter(Boolean);
  const packages = [...new Set(answer.packages.map((p) => p.trim()).filter(Boolean))];
  const problems: string[] = [];

  const review = reviewProposedCommands(commands, { mode: 'fix' });
  for (const r of review.refused) {
    refuse(r.command, r.reason);
    problems.push(`command \`${r.command}\` refused: ${r.reason}`);
  }
  problems.push(...reviewPackageNames(packages, deps.installable ?? null).problems);
  const env: Record<string, string> = {};
  for (const { name, value } of answer.env) {
    if (!ENV_NAME.test(name) || PROTECTED_ENV.test(name))
      problems.push(`the variable ${name} may not be set`);
    else env[name] = value;
  }

  let patch: AcceptedFix['patch'] = null;
  if (answer.patch.trim()) {
    const refusePatch = (reason: string) => {
      refuse('(patch)', reason);
      problems.push(`the patch is refused: ${reason}`);
    };
    if (!state.source.dir) {
      problems.push('the source tree is not available to check the patch');
    } else {
      // Loose hunk counts are recounted as `git apply --recount` would; the diff tried is the one
      // checked, with those counts, and git's own rewrite of it is checked again, exactly.
      const verdict = await guardDiffInTree(answer.patch, state.source.dir, { recount: true });
      if (!verdict.allowed) refusePatch(verdict.reason);
      else {
        const canonical = await canonicalPatch(
          state.source.dir,
          state.patches,
          verdict.diff,
          deps.scratchDir ?? tmpdir(),
        );
        if ('error' in canonical) problems.push(canonical.error);
        else {
          const again = await guardDiffInTree(canonical.diff, state.source.dir);
          if (!again.allowed) refusePatch(again.reason);
          else patch = { name: '', diff: again.diff, files: canonical.files };
        }
      }
    }
  }
  if (problems.length) return { refusal: problems.join('; ') };
  if (!patch && commands.length === 0 && packages.length === 0 && Object.keys(env).length === 0)
    return { refusal: 'the fix changes nothing (no patch, commands, packages or environment)' };
  return { fix: { answer, patch, commands, packages, env } };
}
