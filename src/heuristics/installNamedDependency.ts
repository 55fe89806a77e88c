import type { DependencyKind } from '../analysis/index.ts';
import { installForRepair } from './installForRepair.ts';
import { withPackages } from './planEdits.ts';
import type { HeuristicContext, HeuristicOutcome, PackageKind } from './RecoveryHeuristic.ts';

/**
 * Something a build system said it could not find: a header, library, pkg-config module,
 * command, CMake package, or (`word`) only a name in a sentence (`libidn was not found`).
 */
export interface NamedDependency {
  kind: PackageKind | 'word';
  name: string;
}

const ANALYSIS_KIND: Record<PackageKind, DependencyKind> = {
  header: 'header',
  pkgconfig: 'pkg-config',
  library: 'library',
  command: 'program',
  'cmake-package': 'cmake-package',
};

/** `libidn`, `idn`, `IDN`, `libidn2.0` → `idn`: the stem two spellings of one library share. */
export function stemOf(name: string): string {
  return (name.split('/').at(-1) ?? name)
    .toLowerCase()
    .replace(/\.(h|hpp|hh|pc|so|a)$/, '')
    .replace(/^lib/, '')
    .replace(/[-_]?[\d.]+$/, '');
}

/** `idn:library` and so on: what a heuristic firing is about (each fires once per port). */
export function keyOf(wanted: readonly NamedDependency[]): string {
  return wanted.map((w) => `${w.kind}:${w.name}`).join(',');
}

export function parseKey(key: string): NamedDependency[] {
  return key.split(',').flatMap((part) => {
    const [kind, name] = part.split(/:(.*)/s);
    return kind && name ? [{ kind: kind as NamedDependency['kind'], name }] : [];
  });
}

/**
 * The Debian package for a named dependency: the analysis's own dependency list first (it often
 * found the check and its package already, as an optional dependency nothing installed), then
 * the riscv64 Contents index. A bare word is matched by stem in the analysis, then looked up as
 * a library and a pkg-config module.
 */
export async function packageFor(ctx: HeuristicContext, wanted: NamedDependency): Promise<string | null> {
  const deps = ctx.analysis?.dependencies ?? [];
  const resolved = deps.filter((d) => d.debianPackages.length > 0);
  const same =
    wanted.kind === 'word'
      ? resolved.find((d) => stemOf(d.name) === stemOf(wanted.name))
      : resolved.find(
          (d) =>
            d.kind === ANALYSIS_KIND[wanted.kind as PackageKind] &&
            d.name.toLowerCase() === wanted.name.toLowerCase(),
        );
  if (same) return same.debianPackages[0] ?? null;
  if (wanted.kind !== 'word') return ctx.findPackage(wanted.kind, wanted.name);
  const stem = stemOf(wanted.name);
  if (!/^[a-z0-9][\w+.-]*$/.test(stem)) return null;
  return (
    (await ctx.findPackage('library', stem)) ??
    (await ctx.findPackage('pkgconfig', wanted.name.toLowerCase())) ??
    // a module named after the library (`libindi.pc` for "INDI")
    (await ctx.findPackage('pkgconfig', `lib${stem}`))
  );
}

/**
 * Installs the package of the first named dependency that has one not yet in the plan, and adds
 * it to the plan. `what` says where the names came from, for the report.
 */
export async function installNamedDependency(
  ctx: HeuristicContext,
  wanted: readonly NamedDependency[],
  what: string,
): Promise<HeuristicOutcome> {
  const already: string[] = [];
  for (const w of wanted) {
    const pkg = await packageFor(ctx, w);
    if (!pkg) continue;
    if (ctx.plan.packages.includes(pkg)) {
      already.push(pkg);
      continue;
    }
    const { command, failed } = await installForRepair(ctx, [pkg], `installing ${pkg} failed`);
    if (failed) return failed;
    return {
      applied: true,
      description: `installed ${pkg} (provides the ${w.kind === 'word' ? 'dependency' : w.kind} ${w.name} that ${what})`,
      commands: [command],
      plan: withPackages(ctx.plan, [pkg]),
    };
  }
  const names = wanted.map((w) => w.name).join(', ');
  return {
    applied: false,
    description: already.length
      ? `${already.join(', ')} is installed but ${what} still fails (${names})`
      : `no Debian package provides ${names} (${what})`,
    commands: [],
  };
}
