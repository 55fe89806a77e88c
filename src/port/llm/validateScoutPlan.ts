import { BUILD_SYSTEM_TYPES } from '../../analysis/index.ts';
import { reviewPackageNames } from '../../debian/reviewPackageNames.ts';
import { guardCommand } from '../../llm/index.ts';
import { planEnvProblem } from '../../plan/index.ts';
import type { BuildPlan, PlanPhase } from '../state/PortState.ts';
import { SANDBOX_DEST } from '../steps/planFromAnalysis.ts';
import { existingSourceDir } from './existingSourceDir.ts';
import { type BuildPlanAnswer, PLAN_PHASE_NAMES } from './scoutPrompt.ts';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Variables the sandbox sets, or that would change what every command runs. */
const RESERVED_ENV = new Set([
  'RVPORT_SRC',
  'RVPORT_DESTDIR',
  'PATH',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'HOME',
]);
/** Packages come from the plan's list, installed by the sandbox with the network on. */
const PACKAGE_MANAGER = /(^|[\s;&|(])(apt-get|apt|aptitude|dpkg\s+-i)\s/;
/** A step that installs the build (make install, cmake --install, meson/ninja/scons/waf install). */
const INSTALL_STEP =
  /\b(g?make|ninja|scons|waf|\.\/waf)\b[^;&|]*\binstall\b|\bcmake\s+--install\b|\bmeson\s+install\b/;
const NAMES_DESTDIR = new RegExp(`\\$\\{?RVPORT_DESTDIR\\}?|${SANDBOX_DEST.replace(/\//g, '\\/')}`);
const OPTIONAL_PHASES = new Set<PlanPhase['name']>(['test', 'install']);

export type ScoutPlanVerdict = { ok: true; plan: BuildPlan } | { ok: false; problems: string[] };

/**
 * Checks a plan the scout proposed against the sandbox's conventions and turns it into a
 * `BuildPlan` (origin `llm`). Any problem refuses the whole plan (a half-trusted plan is worse
 * than the fallback): a command the guard refuses, a package manager in a command, an install
 * that does not go to $RVPORT_DESTDIR, -march=native, a folder not in the tree, an invalid or
 * uninstallable package, an invalid variable name, or no command at all. Phase names are checked by the schema; phases
 * are put in their fixed order.
 */
export function validateScoutPlan(
  answer: BuildPlanAnswer,
  context: {
    sourceRoot: string | undefined;
    buildSystem: string;
    /** What apt in the sandbox can install; null or absent: names are checked by form only. */
    installable?: ReadonlySet<string> | null;
  },
): ScoutPlanVerdict {
  const problems: string[] = [];
  const dir = existingSourceDir(context.sourceRoot, answer.dir);
  if (dir === null) problems.push(`folder "${answer.dir}" does not exist in the tree`);

  const phases: PlanPhase[] = [];
  for (const name of PLAN_PHASE_NAMES) {
    const commands = answer.phases
      .filter((p) => p.name === name)
      .flatMap((p) => p.commands)
      .map((c) => c.trim())
      .filter(Boolean);
    if (commands.length === 0) continue;
    for (const command of commands) {
      const problem = commandProblem(name, command);
      if (problem) problems.push(`${name}: ${JSON.stringify(command)}: ${problem}`);
    }
    phases.push({ name, commands, ...(OPTIONAL_PHASES.has(name) ? { optional: true } : {}) });
  }
  if (!phases.some((p) => !p.optional)) problems.push('no prepare, bootstrap, configure or build command');

  const packages = [...new Set(answer.packages.map((p) => p.trim()).filter(Boolean))];
  problems.push(...reviewPackageNames(packages, context.installable ?? null).problems);

  const env: Record<string, string> = {};
  for (const { name, value } of answer.env) {
    if (!ENV_NAME.test(name)) problems.push(`invalid variable name ${JSON.stringify(name)}`);
    else if (RESERVED_ENV.has(name)) problems.push(`${name} is set by the sandbox`);
    else if (planEnvProblem(name)) problems.push(planEnvProblem(name) as string);
    else if (value.includes('\0') || value.includes('\n')) problems.push(`${name} has a control character`);
    else if (/-march=native|-mtune=native/.test(value)) problems.push(`${name} asks for -march=native`);
    else env[name] = value;
  }

  if (problems.length > 0) return { ok: false, problems };
  const named = answer.build_system.trim().toLowerCase();
  const buildSystem =
    (BUILD_SYSTEM_TYPES as readonly string[]).includes(named) && named !== 'unknown'
      ? named
      : context.buildSystem;
  return {
    ok: true,
    plan: {
      buildSystem,
      dir: dir ?? '.',
      phases,
      packages: packages.sort(),
      ...(Object.keys(env).length ? { env } : {}),
      // Named by a model, not found: a guessed path must not fail an honest build's verdict.
      expectedArtifacts: [],
      origin: 'llm',
    },
  };
}

function commandProblem(phase: PlanPhase['name'], command: string): string | null {
  const verdict = guardCommand(command, { mode: 'fix' });
  if (!verdict.allowed) return verdict.reason;
  if (PACKAGE_MANAGER.test(` ${command} `)) return 'packages belong in the package list, not in a command';
  if (/-m(arch|tune|cpu)=native/.test(command)) return '-march=native builds for the build machine';
  if (INSTALL_STEP.test(command) && !NAMES_DESTDIR.test(command))
    return 'installs outside DESTDIR (use DESTDIR="$RVPORT_DESTDIR")';
  if (phase === 'install' && !NAMES_DESTDIR.test(command))
    return 'an install command must name $RVPORT_DESTDIR';
  return null;
}
