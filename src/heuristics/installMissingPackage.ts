import { withPackages } from './planEdits.ts';
import type { HeuristicContext, HeuristicMatch, RecoveryHeuristic } from './RecoveryHeuristic.ts';

type Kind = 'header' | 'library' | 'pkgconfig' | 'command';

const PATTERNS: ReadonlyArray<{ kind: Kind; pattern: RegExp }> = [
  { kind: 'header', pattern: /fatal error: ([\w+./-]+\.(?:h|hh|hpp|hxx)): No such file or directory/ },
  { kind: 'library', pattern: /cannot find -l([\w+.-]+)/ },
  {
    kind: 'pkgconfig',
    pattern:
      /Package '([\w+.-]+)',? (?:required by '[^']*', )?not found|No package '([\w+.-]+)' found|Package ([\w+.-]+) was not found in the pkg-config search path/,
  },
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
    const pkg = await ctx.findPackage(kind, name);
    if (!pkg)
      return { applied: false, description: `no Debian package provides the ${kind} ${name}`, commands: [] };
    if (ctx.plan.packages.includes(pkg)) {
      return {
        applied: false,
        description: `${pkg} is installed but the ${kind} ${name} is still missing`,
        commands: [],
      };
    }
    const command = `apt-get install -y --no-install-recommends ${pkg}`;
    const result = await ctx.sandbox.installPackages([pkg], {
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    if (result.exitCode !== 0) {
      return {
        applied: false,
        description: `installing ${pkg} failed: ${result.stderr.trim().split('\n').at(-1)}`,
        commands: [command],
      };
    }
    return {
      applied: true,
      description: `installed ${pkg} (provides the ${kind} ${name})`,
      commands: [command],
      plan: withPackages(ctx.plan, [pkg]),
    };
  },
};
