import type { ExecutedCommand, PortState } from '../PortState.ts';
import { codeBlock, table } from './markdown.ts';

export interface RecipeContext {
  imageId: string;
  suite: string;
}

/**
 * The deterministic recipe (the summarizer's fallback): how to build the package for riscv64 by
 * hand, from the commands that worked in the final attempt, the packages, the patches, the
 * architecture notes and how the result was verified.
 */
export function renderRecipe(state: PortState, ctx: RecipeContext): string {
  const out: string[] = [];
  out.push(`# ${state.source.name} for riscv64 Linux`);
  out.push('');
  out.push(recipeVerdictLine(state));
  out.push('');
  out.push('## Source');
  out.push('');
  out.push(`- SOURCE: \`${state.source.spec}\``);
  if (state.source.url) out.push(`- URL: ${state.source.url}`);
  if (state.source.commit) out.push(`- commit: \`${state.source.commit}\``);
  out.push(`- build system: ${state.plan?.buildSystem ?? 'unknown'}, in \`${state.plan?.dir ?? '.'}\``);
  out.push('');
  out.push('## Prerequisites');
  out.push('');
  out.push(
    `A Debian ${ctx.suite} riscv64 system (rvport sandbox image \`${ctx.imageId}\`, ${state.options.mode} mode) with:`,
  );
  out.push('');
  out.push(codeBlock(recipeInstallLine(state), 'sh'));
  out.push('');
  const fromDebian = (state.debian?.installed ?? []).filter((p) => state.plan?.packages.includes(p));
  if (fromDebian.length) {
    out.push(`From Debian's Build-Depends of the package: ${fromDebian.join(', ')}.`);
    out.push('');
  }
  const steps = successfulSteps(state.executed);
  out.push('## Build');
  out.push('');
  if (steps.length === 0) {
    out.push('No build command succeeded.');
  } else {
    const env = recipeEnvLines(state);
    if (env.length) {
      out.push('With this environment:');
      out.push('');
      out.push(codeBlock(env.join('\n'), 'sh'));
      out.push('');
    }
    out.push(
      `From the source root${state.plan?.dir && state.plan.dir !== '.' ? ` (the build lives in \`${state.plan.dir}\`)` : ''}:`,
    );
    for (const [phase, commands] of groupByPhase(steps)) {
      out.push('');
      out.push(`### ${phase}`);
      out.push('');
      out.push(codeBlock(commands.join('\n'), 'sh'));
    }
  }
  if (state.patches.length > 0) {
    out.push('');
    out.push('## Patches');
    out.push('');
    out.push('Apply these to the source first (`git apply patches/NAME`):');
    for (const p of state.patches) out.push(`- \`patches/${p.name}\``);
  }
  const notes = state.findings.filter((f) => f.severity === 'high');
  if (notes.length > 0) {
    out.push('');
    out.push('## Architecture notes');
    out.push('');
    for (const f of notes.slice(0, 10))
      out.push(
        `- ${f.kind} in \`${f.file}${f.line ? `:${f.line}` : ''}\`${f.suggestion ? `: ${f.suggestion}` : ''}`,
      );
  }
  out.push('');
  out.push('## Verification');
  out.push('');
  out.push('rvport read the ELF headers of the build outputs (no file names trusted):');
  out.push('');
  const shown = state.artifacts.filter((a) => a.role !== 'object' && a.role !== 'other').slice(0, 20);
  out.push(
    shown.length
      ? table(
          ['artifact', 'role', 'machine', 'bits', 'ABI', 'linkage'],
          shown.map((a) => [a.path, a.role, a.machine, a.bits, a.abi, a.linkage]),
        )
      : 'No artifacts were found.',
  );
  if (state.tests) {
    out.push('');
    out.push(
      state.tests.ran
        ? `Package tests under emulation: ${state.tests.passed} passed, ${state.tests.failed} failed (exit ${state.tests.exitCode}).`
        : `Package tests: not run (${state.tests.summary}).`,
    );
  }
  return `${out.join('\n')}\n`;
}

/** The recipe's first line after the title: the verdict, as the verify node decided it. */
export function recipeVerdictLine(state: PortState): string {
  return state.verification?.verdict === 'verified'
    ? `Verified: the build produced riscv64 ELF output (${state.verification?.reason}).`
    : `Not verified: ${state.verification?.reason ?? 'the build did not finish'}.`;
}

/** The prerequisites' install command. */
export function recipeInstallLine(state: PortState): string {
  const packages = state.plan?.packages ?? [];
  return `apt-get install build-essential${packages.length ? ` ${packages.join(' ')}` : ''}`;
}

/** The plan's environment as `export` lines (empty without one). */
export function recipeEnvLines(state: PortState): string[] {
  return Object.entries(state.plan?.env ?? {}).map(([k, v]) => `export ${k}=${JSON.stringify(v)}`);
}

/** The commands of the last attempt that got through, plus the repairs that made it work. */
export function successfulSteps(executed: readonly ExecutedCommand[]): ExecutedCommand[] {
  const lastAttempt = Math.max(0, ...executed.map((c) => c.attempt));
  const repairs = executed.filter((c) => c.origin !== 'plan' && c.exitCode === 0);
  const final = executed.filter((c) => c.origin === 'plan' && c.attempt === lastAttempt && c.exitCode === 0);
  const seen = new Set<string>();
  return [...repairs, ...final].filter((c) => {
    const key = `${c.phase}\u0000${c.command}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const PHASE_ORDER = ['dependencies', 'prepare', 'bootstrap', 'configure', 'build', 'test', 'install'];

function groupByPhase(steps: readonly ExecutedCommand[]): Array<[string, string[]]> {
  const groups = new Map<string, string[]>();
  for (const s of steps) groups.set(s.phase, [...(groups.get(s.phase) ?? []), s.command]);
  return [...groups].sort(([a], [b]) => rank(a) - rank(b));
}

function rank(phase: string): number {
  const i = PHASE_ORDER.indexOf(phase);
  return i === -1 ? PHASE_ORDER.length : i;
}
