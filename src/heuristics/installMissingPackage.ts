import { installForRepair } from './installForRepair.ts';
import { withPackages } from './planEdits.ts';
import type {
  HeuristicContext,
  HeuristicMatch,
  HeuristicOutcome,
  RecoveryHeuristic,
} from './RecoveryHeuristic.ts';
import {
  planPackageFolder,
  searchesFolder,
  searchPathFolder,
  withSearchPathFolder,
} from './searchPathFolder.ts';

type Kind = 'header' | 'library' | 'pkgconfig' | 'command';

const PATTERNS: ReadonlyArray<{ kind: Kind; pattern: RegExp }> = [
  // first: a module pkg-config did not find explains the headers a compile then misses
  // (`pkg-config --cflags gtk+-2.0` in a Makefile, then gtk/gtk.h not found)
  {
    kind: 'pkgconfig',
    pattern:
      /Package '([\w+.-]+)',? (?:required by '[^']*', )?not found|No package '([\w+.-]+)' found|Package ([\w+.-]+) was not found in the pkg-config search path/,
  },
  { kind: 'header', pattern: /fatal error: ([\w+./-]+\.(?:h|hh|hpp|hxx)): No such file or directory/ },
  { kind: 'library', pattern: /cannot find -l([\w+.-]+)/ },
  {
    kind: 'command',
    pattern:
      /(?:^|\s)(?:\/bin\/)?(?:sh|bash|dash)(?:: line \d+)?: (?:\d+: )?([\w+.-]+): (?:command )?not found/m,
  },
  { kind: 'command', pattern: /^make(?:\[\d+\])?: ([\w+.-]+): No such file or directory/m },
  // automake's `missing` wrapper: "WARNING: 'help2man' is missing on your system."
  { kind: 'command', pattern: /WARNING: '([\w+.-]+)' is missing on your system/ },
  { kind: 'command', pattern: /^\S+: line \d+: ([\w+.-]+): command not found/m },
  { kind: 'command', pattern: /Can't exec "([\w+.-]+)": No such file or directory/ },
];

/** The header, library, pkg-config module or program the compiler, linker or shell says is missing. */
export function parseMissingPackage(output: string): { kind: Kind; name: string } | null {
  for (const { kind, pattern } of PATTERNS) {
    const m = pattern.exec(output);
    const name = m?.slice(1).find(Boolean);
    if (name) return { kind, name };
  }
  return null;
}

/**
 * Every program the output says is missing, in order: a parallel make reports several at once
 * (automake's `missing` for help2man and makeinfo), and each one installed alone would cost a
 * whole build more.
 */
export function missingCommands(output: string): string[] {
  const names = new Set<string>();
  for (const { kind, pattern } of PATTERNS) {
    if (kind !== 'command') continue;
    const all = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    for (const m of output.matchAll(all)) {
      const name = m.slice(1).find(Boolean);
      if (name) names.add(name);
    }
  }
  return [...names];
}

/**
 * A missing header, library, pkg-config module or program: find the Debian package that
 * provides it in the riscv64 Contents index, install it in the sandbox, and add it to the plan.
 */
export const installMissingPackage: RecoveryHeuristic = {
  name: 'install-missing-package',
  description:
    'install the Debian package that provides a missing header, library, pkg-config module or tool',
  match(ctx: HeuristicContext): HeuristicMatch | null {
    const wanted = parseMissingPackage(ctx.failure.output);
    return wanted
      ? { key: `${wanted.kind}:${wanted.name}`, reason: `missing ${wanted.kind} ${wanted.name}` }
      : null;
  },
  async apply(ctx, match) {
    const [kind, name] = match.key.split(/:(.*)/s) as [Kind, string];
    const found = await ctx.findPackage(kind, name);
    // the other programs of the same output are installed with it, or instead of one no package has
    const others = kind === 'command' ? await otherMissingPrograms(ctx, name, found) : [];
    const pkg = found && !ctx.plan.packages.includes(found) ? found : null;
    if (!pkg && others.length === 0) {
      const outcome = found
        ? await searchInstalledPackage(ctx, found, kind, name)
        : { applied: false, description: `no Debian package provides the ${kind} ${name}`, commands: [] };
      return outcome.applied ? outcome : ((await searchPlanPackages(ctx, kind, name)) ?? outcome);
    }
    const packages = [...(pkg ? [pkg] : []), ...others.map((o) => o.pkg)];
    const { command, failed } = await installForRepair(
      ctx,
      packages,
      `installing ${packages.join(', ')} failed`,
    );
    if (failed) return failed;
    const plan = withPackages(ctx.plan, packages);
    const also = others.map((o) => `${o.pkg} (provides the command ${o.name})`);
    if (!pkg)
      return {
        applied: true,
        description: `no Debian package provides the ${kind} ${name}; installed ${also.join(', ')}`,
        commands: [command],
        plan,
      };
    const inFolder = await searchPathFolder(ctx, pkg, kind, name);
    if (!inFolder)
      return {
        applied: true,
        description: [`installed ${pkg} (provides the ${kind} ${name})`, ...also].join(', '),
        commands: [command],
        plan,
      };
    return {
      applied: true,
      description: `installed ${pkg} (provides the ${kind} ${name} in ${inFolder.folder}, added to ${inFolder.variable})`,
      commands: [command],
      plan: withSearchPathFolder(plan, inFolder),
    };
  },
};

/**
 * A header or library whose package the plan installs already (a Build-Depends, a dependency the
 * analysis found) but keeps in a folder of its own that the build does not name: that folder goes
 * on CPATH or, with -L, in LDFLAGS. Without that the build fails the same way however often the package is
 * installed.
 */
async function searchInstalledPackage(
  ctx: HeuristicContext,
  pkg: string,
  kind: Kind,
  name: string,
): Promise<HeuristicOutcome> {
  const found = await searchPathFolder(ctx, pkg, kind, name);
  if (!found || searchesFolder(ctx.plan, found))
    return {
      applied: false,
      description: `${pkg} is installed but the ${kind} ${name} is still missing`,
      commands: [],
    };
  return {
    applied: true,
    description: `${pkg} is installed and keeps the ${kind} ${name} in ${found.folder}: added to ${found.variable}`,
    commands: [],
    plan: withSearchPathFolder(ctx.plan, found),
  };
}

/**
 * A header or library that one of the plan's installed packages keeps in a folder of its own,
 * found by the file where the Contents index names no package, or another one
 * (libiberty-dev's /usr/include/libiberty/demangle.h, ht): that folder goes on CPATH, which gcc
 * and g++ read alike, or on LDFLAGS. Null when no such folder is, or it is searched already.
 */
async function searchPlanPackages(
  ctx: HeuristicContext,
  kind: Kind,
  name: string,
): Promise<HeuristicOutcome | null> {
  const inPlan = await planPackageFolder(ctx, kind, name);
  if (!inPlan || searchesFolder(ctx.plan, inPlan.found)) return null;
  const { pkg, found } = inPlan;
  return {
    applied: true,
    description: `${pkg} is installed and keeps the ${kind} ${name} in ${found.folder}: added to ${found.variable}`,
    commands: [],
    plan: withSearchPathFolder(ctx.plan, found),
  };
}

/** The other programs the same output says are missing, with the Debian package of each not yet in the plan. */
async function otherMissingPrograms(
  ctx: HeuristicContext,
  first: string,
  firstPkg: string | null,
): Promise<{ name: string; pkg: string }[]> {
  const found: { name: string; pkg: string }[] = [];
  for (const name of missingCommands(ctx.failure.output)) {
    if (name === first) continue;
    const pkg = await ctx.findPackage('command', name);
    if (pkg && pkg !== firstPkg && !ctx.plan.packages.includes(pkg) && !found.some((f) => f.pkg === pkg))
      found.push({ name, pkg });
  }
  return found;
}
