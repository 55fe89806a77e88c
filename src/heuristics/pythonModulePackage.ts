import { installForRepair } from './installForRepair.ts';
import { withPackages } from './planEdits.ts';
import type { HeuristicContext, RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * Python's words for a module it could not import (Python 3, and Python 2's older form):
 *   ModuleNotFoundError: No module named 'six'
 *   ImportError: No module named yaml.constructor
 */
const NO_MODULE = /(?:ModuleNotFoundError|ImportError): No module named '?([A-Za-z_]\w*(?:\.\w+)*)'?/;

/** Modules whose Debian package is not python3-<name> (the name a module is imported by). */
const PACKAGE_OF: Readonly<Record<string, string>> = {
  // removed from the standard library in 3.12; setuptools provides it again
  distutils: 'python3-setuptools',
  pkg_resources: 'python3-pkg-resources',
  elftools: 'python3-pyelftools',
  'google.protobuf': 'python3-protobuf',
  Cython: 'cython3',
  mesonbuild: 'meson',
  Cryptodome: 'python3-pycryptodome',
};

/** Modules that have their own repair (or none from Debian). */
const ELSEWHERE = new Set(['imp']);

/** The Debian packages that may provide a module, most likely first. */
export function pythonModuleCandidates(module: string): string[] {
  const [top = module, second] = module.split('.');
  const debianName = top.toLowerCase().replace(/_/g, '-');
  const named = [PACKAGE_OF[second ? `${top}.${second}` : top], PACKAGE_OF[top]];
  return [...new Set([...named, `python3-${debianName}`, `python3-py${debianName}`])].filter(
    (p): p is string => p !== undefined,
  );
}

/** The first candidate the sandbox's lists offer; by form alone when the lists cannot say. */
async function installableCandidate(ctx: HeuristicContext, module: string): Promise<string | null> {
  const candidates = pythonModuleCandidates(module);
  const offered = ctx.installable ? await ctx.installable() : null;
  if (!offered) return candidates[0] ?? null;
  return candidates.find((p) => offered.has(p)) ?? null;
}

/**
 * A build script imports a Python module the sandbox lacks (`No module named 'six'`): the Debian
 * package of that module (python3-six, or the known exceptions to the naming) is installed and
 * added to the plan.
 */
export const pythonModulePackage: RecoveryHeuristic = {
  name: 'python-module-package',
  description: 'install the Debian package of a Python module a build script imports',
  match(ctx) {
    const module = NO_MODULE.exec(ctx.failure.output)?.[1];
    if (!module || ELSEWHERE.has(module.split('.')[0] as string)) return null;
    return { key: module, reason: `Python could not import ${module}` };
  },
  async apply(ctx, match) {
    const pkg = await installableCandidate(ctx, match.key);
    if (!pkg) {
      return {
        applied: false,
        description: `no Debian package provides the Python module ${match.key} (tried ${pythonModuleCandidates(match.key).join(', ')})`,
        commands: [],
      };
    }
    if (ctx.plan.packages.includes(pkg)) {
      return {
        applied: false,
        description: `${pkg} is installed but Python still cannot import ${match.key}`,
        commands: [],
      };
    }
    const { command, failed } = await installForRepair(ctx, [pkg], `installing ${pkg} failed`);
    if (failed) return failed;
    return {
      applied: true,
      description: `installed ${pkg} (provides the Python module ${match.key} a build script imports)`,
      commands: [command],
      plan: withPackages(ctx.plan, [pkg]),
    };
  },
};
