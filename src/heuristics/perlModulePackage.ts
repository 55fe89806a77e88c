import { installForRepair } from './installForRepair.ts';
import { withPackages } from './planEdits.ts';
import type { HeuristicContext, RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** Perl's words for a module it could not load: `Can't locate XML/Parser.pm in @INC`. */
const CANNOT_LOCATE = /Can't locate ((?:[A-Za-z_]\w*\/)*[A-Za-z_]\w*)\.pm in @INC/;

/**
 * The Debian packages that may provide a Perl module, most likely first: Debian's Perl policy
 * names a module's package lib<name>-perl (XML::Parser in libxml-parser-perl), and a module of a
 * distribution lives in the package of its first parts (XML::Parser::Expat in libxml-parser-perl).
 */
export function perlModuleCandidates(path: string): string[] {
  const parts = path.split('/');
  const candidates: string[] = [];
  for (let n = parts.length; n >= 1; n--)
    candidates.push(`lib${parts.slice(0, n).join('-').toLowerCase().replace(/_/g, '-')}-perl`);
  return candidates;
}

async function installableCandidate(ctx: HeuristicContext, path: string): Promise<string | null> {
  const candidates = perlModuleCandidates(path);
  const offered = ctx.installable ? await ctx.installable() : null;
  if (!offered) return candidates[0] ?? null;
  return candidates.find((p) => offered.has(p)) ?? null;
}

/**
 * A build tool written in Perl needs a module the sandbox lacks (gmmproc, of glibmm's bindings:
 * `Can't locate XML/Parser.pm in @INC (you may need to install the XML::Parser module)`): the
 * Debian package of that module is installed and added to the plan.
 */
export const perlModulePackage: RecoveryHeuristic = {
  name: 'perl-module-package',
  description: 'install the Debian package of a Perl module a build tool loads',
  match(ctx) {
    const path = CANNOT_LOCATE.exec(ctx.failure.output)?.[1];
    if (!path) return null;
    return { key: path, reason: `Perl could not load ${path.replaceAll('/', '::')}` };
  },
  async apply(ctx, match) {
    const module = match.key.replaceAll('/', '::');
    const pkg = await installableCandidate(ctx, match.key);
    if (!pkg)
      return {
        applied: false,
        description: `no Debian package provides the Perl module ${module} (tried ${perlModuleCandidates(match.key).join(', ')})`,
        commands: [],
      };
    if (ctx.plan.packages.includes(pkg))
      return {
        applied: false,
        description: `${pkg} is installed but Perl still cannot load ${module}`,
        commands: [],
      };
    const { command, failed } = await installForRepair(ctx, [pkg], `installing ${pkg} failed`);
    if (failed) return failed;
    return {
      applied: true,
      description: `installed ${pkg} (provides the Perl module ${module} a build tool loads)`,
      commands: [command],
      plan: withPackages(ctx.plan, [pkg]),
    };
  },
};
