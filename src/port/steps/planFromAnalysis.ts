import { posix } from 'node:path';
import { type DefaultPlan, defaultPlan } from '../../analysis/index.ts';
import { allowedPlanEnv, planPhases } from '../../plan/index.ts';
import { RUST_TARGET } from '../../sandbox/index.ts';
import { type ScriptedAnalysis, scriptedOf } from '../graph/nodes/scriptedAnalysis.ts';
import type { BuildPlan, PortState } from '../state/PortState.ts';
import { compilerPackages } from './compilerPackages.ts';
import { debianCargoRegistry } from './debianCargoRegistry.ts';
import { debianGoPath } from './debianGoPath.ts';
import { fetchedCargoPrepare, fetchedGoPhases, packagesFetchedInstead } from './fetchedDependencyPlan.ts';

/** Where the source tree is inside the sandbox; commands see it as $RVPORT_SRC. */
export const SANDBOX_SRC = '/build/src';
/** Where install steps put files (DESTDIR); commands see it as $RVPORT_DESTDIR. */
export const SANDBOX_DEST = '/build/dest';

/** Artifact paths under DESTDIR are reported as `DESTDIR/…`; the others are relative to the source root. */
export const DESTDIR_PREFIX = 'DESTDIR/';

/** Where an artifact lives: the instance's `src` or `dest` folder, and its path inside it. */
export function artifactLocation(path: string): { folder: 'src' | 'dest'; rel: string } {
  return path.startsWith(DESTDIR_PREFIX)
    ? { folder: 'dest', rel: path.slice(DESTDIR_PREFIX.length) }
    : { folder: 'src', rel: path };
}

/** Folder and environment of every command of a plan inside the sandbox. */
export function planCommandContext(plan: BuildPlan | null): { cwd: string; env: Record<string, string> } {
  return {
    cwd: posix.join(SANDBOX_SRC, plan?.dir ?? '.'),
    // a recipe or an imported cache entry was not checked when it was made here: check it again
    env: { ...allowedPlanEnv(plan?.env).env, RVPORT_SRC: SANDBOX_SRC, RVPORT_DESTDIR: SANDBOX_DEST },
  };
}

/** Toolchains that are not in the sandbox image and come from Debian when the build needs them. */
const TOOLCHAIN_PACKAGES: Record<string, string[]> = {
  go: ['golang-go'],
  cargo: ['cargo'],
};

/**
 * The standard plan for the detected build system (no LLM): the analysis's default phases, the
 * Debian packages the dependencies resolved to, and a prepare step that refreshes config.guess
 * and config.sub where a shipped configure carries copies that do not know riscv64.
 */
export function planFromAnalysis(state: PortState, origin: BuildPlan['origin']): BuildPlan | null {
  const scripted = scriptedOf(state);
  if (!scripted) return null;
  const analysis = state.packageAnalysis;
  const base = basePlan(scripted, analysis);
  if (base.phases.length === 0) return null;
  const phases = planPhases(base);
  // Debian's patches changed configure.ac or Makefile.am: regenerate, as dh_autoreconf does
  if (
    base.buildSystem === 'autotools' &&
    state.debian?.regenerate?.length &&
    !phases.some((p) => p.name === 'bootstrap')
  ) {
    const at = phases.findIndex((p) => p.name === 'configure');
    phases.splice(at === -1 ? 0 : at, 0, { name: 'bootstrap', commands: ['autoreconf -fi'] });
  }
  const bootstraps = phases.some((p) => p.name === 'bootstrap');
  const stale = scripted.autotoolsHelpers.filter((h) => !h.knowsRiscv64);
  if (stale.length > 0 && !bootstraps) {
    phases.unshift({
      name: 'prepare',
      commands: stale.map((h) => `cp /usr/share/misc/${h.kind} "$RVPORT_SRC/${h.file}"`),
    });
  }
  // crates with dependencies build offline from Debian's packaged crates, as Debian builds them
  // (unless the tree's own cargo configuration already replaces crates.io, with vendored sources)
  const candidate = scripted.buildSystems.find((c) => c.type === base.buildSystem && c.dir === base.dir);
  // fetched from a configured registry or proxy (checked against the lock): those, not Debian's
  const fetched = state.fetchedDependencies ?? null;
  const fetchedCrates = fetched?.kind === 'cargo' && base.buildSystem === 'cargo';
  const crates =
    base.buildSystem === 'cargo' && candidate?.details.sourceReplaced !== true && !fetchedCrates
      ? debianCargoRegistry(scripted.dependencies)
      : null;
  const prepare = fetchedCrates ? fetchedCargoPrepare() : (crates?.prepare ?? []);
  if (prepare.length > 0) {
    const at = phases.findIndex((p) => p.name === 'prepare');
    if (at === -1) phases.unshift({ name: 'prepare', commands: prepare });
    else phases[at]?.commands.push(...prepare);
  }
  // a Go module with requirements builds from Debian's Go libraries in a GOPATH, as dh-golang does
  const fetchedGo = fetched?.kind === 'go' && base.buildSystem === 'go';
  if (fetchedGo)
    phases.splice(0, phases.length, ...phases.filter((p) => p.name === 'prepare'), ...fetchedGoPhases());
  const goPath =
    base.buildSystem === 'go' && !fetchedGo
      ? debianGoPath(
          scripted.dependencies,
          // a package without go.mod: the import path Debian builds it under, where known
          String(candidate?.details.module || state.debian?.goImportPath || ''),
          base.dir,
          candidate?.details.gopath === true,
          state.debian?.goExcludes ?? [],
        )
      : null;
  if (goPath) phases.splice(0, phases.length, ...goPath);
  const notNeeded =
    fetched && (fetchedGo || fetchedCrates)
      ? packagesFetchedInstead(fetched, scripted.dependencies)
      : new Set();
  const packages = new Set([
    ...(analysis?.dependencies ?? []).filter((p) => !notNeeded.has(p)),
    ...(TOOLCHAIN_PACKAGES[base.buildSystem] ?? []),
    ...(crates?.packages ?? []),
    ...compilerPackages(state),
  ]);
  return {
    buildSystem: base.buildSystem,
    dir: base.dir,
    phases,
    packages: [...packages].sort(),
    // an explicit target in every mode: cargo mixes it into each crate's metadata, so an emulated
    // and an accelerated build (x86_64 cargo) only agree with it, and their outputs are in one place
    ...(base.buildSystem === 'cargo' ? { env: { CARGO_BUILD_TARGET: RUST_TARGET } } : {}),
    // An LLM-grounded analysis names artifacts, not the paths the verdict matches exactly: a
    // guessed name must not fail an honest build.
    expectedArtifacts: analysis && !analysis.llmGrounded ? analysis.expectedArtifacts : [],
    origin,
  };
}

/**
 * The scripted default plan, or, when an LLM-grounded analysis chose another build the scan
 * detected (system and folder), that build's default plan (the seed: the analyst's build system
 * replaces the detected one).
 */
function basePlan(scripted: ScriptedAnalysis, analysis: PortState['packageAnalysis']): DefaultPlan {
  if (!analysis?.llmGrounded) return scripted.plan;
  if (analysis.buildSystem === scripted.plan.buildSystem && analysis.dir === scripted.plan.dir)
    return scripted.plan;
  const chosen = scripted.buildSystems.find((c) => c.type === analysis.buildSystem && c.dir === analysis.dir);
  return chosen ? defaultPlan(chosen) : scripted.plan;
}
