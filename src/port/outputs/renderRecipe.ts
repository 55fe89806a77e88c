import { shellQuote } from '../../process/shellQuote.ts';
import type { ExecutedCommand, PortState } from '../state/PortState.ts';
import { type BuildScript, buildScriptOfState } from './BuildScript.ts';
import { codeBlock, table } from './markdown.ts';
import { renderFetchedDependencies } from './renderFetchedDependencies.ts';

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
  const script = scriptOf(state);
  if (state.fetchedDependencies?.items.length) {
    out.push(...renderFetchedDependencies(state.fetchedDependencies).slice(1));
    out.push('');
  }
  out.push('## Build');
  out.push('');
  if (steps.length === 0 || !script) {
    out.push('No build command succeeded.');
  } else {
    out.push(
      '`sh build.sh SOURCE_DIR` (beside this file, with packages.txt, patches/ and a Dockerfile) runs these steps. ' +
        '`$SRC_DIR` is the source folder, `$DESTDIR` where the install step puts files; each command runs ' +
        `from the build folder${script.dir !== '.' ? ` (\`${script.dir}\`)` : ' (the source root)'}, after the patches.`,
    );
    const env = recipeEnvLines(state);
    if (env.length) {
      out.push('');
      out.push('With this environment:');
      out.push('');
      out.push(codeBlock(env.join('\n'), 'sh'));
    }
    for (const phase of script.phases) {
      if (phase.commands.length === 0) continue;
      out.push('');
      out.push(
        `### ${phase.name}${phase.name === 'test' ? ' (optional: `RUN_TESTS=1`)' : phase.optional ? ' (optional)' : ''}`,
      );
      out.push('');
      out.push(codeBlock(phase.commands.join('\n'), 'sh'));
    }
  }
  if (state.patches.length > 0) {
    out.push('');
    out.push('## Patches');
    out.push('');
    out.push('build.sh applies these to the source first, in this order (`patch -p1 -i patches/NAME`):');
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

/**
 * The prerequisites' install command: the complete list build.sh installs (the image's build
 * tools the plan uses too, which the sandbox had without installing them).
 */
export function recipeInstallLine(state: PortState): string {
  const packages = scriptOf(state)?.packages ?? ['build-essential', ...(state.plan?.packages ?? [])];
  return `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

/** The plan's environment as build.sh exports it (empty without one): single-quoted, never expanded. */
export function recipeEnvLines(state: PortState): string[] {
  return Object.entries(scriptOf(state)?.env ?? {}).map(([k, v]) => `export ${k}=${shellQuote(v)}`);
}

/** The commands of the recipe's build section, as build.sh runs them. */
export function recipeCommands(state: PortState): string[] {
  return (scriptOf(state)?.phases ?? []).flatMap((p) => p.commands);
}

/** The port's script, or null when its plan cannot be one (the recipe then says less). */
function scriptOf(state: PortState): BuildScript | null {
  try {
    return buildScriptOfState(state);
  } catch {
    return null;
  }
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
