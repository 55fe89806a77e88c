import { withEnv, withPackages } from './planEdits.ts';
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
    const plan = withPackages(ctx.plan, [pkg]);
    const folder = kind === 'header' ? await headerFolder(ctx, pkg, name) : null;
    if (!folder)
      return {
        applied: true,
        description: `installed ${pkg} (provides the ${kind} ${name})`,
        commands: [command],
        plan,
      };
    const cpath = ctx.plan.env?.CPATH;
    return {
      applied: true,
      description: `installed ${pkg} (provides the ${kind} ${name} in ${folder}, added to CPATH)`,
      commands: [command],
      plan: withEnv(plan, 'CPATH', cpath ? `${cpath}:${folder}` : folder),
    };
  },
};

/**
 * The folder below /usr/include where an installed package keeps a header the build names
 * without that folder (`quickjs-libc.h` in /usr/include/quickjs), which the compiler then
 * searches through CPATH whatever the build system; null when the header is where the build
 * looks already. Read from the package's file list inside the sandbox.
 */
async function headerFolder(ctx: HeuristicContext, pkg: string, name: string): Promise<string | null> {
  const listed = await ctx.sandbox.run(['dpkg-query', '-L', pkg], { outputCapBytes: 1024 * 1024 });
  if (listed.exitCode !== 0) return null;
  const paths = listed.stdout
    .split('\n')
    .filter((p) => p.startsWith('/usr/include/') && p.endsWith(`/${name}`));
  if (paths.length === 0 || paths.includes(`/usr/include/${name}`)) return null;
  const shortest = paths.sort((a, b) => a.length - b.length)[0] ?? '';
  const folder = shortest.slice(0, -name.length - 1);
  return /^\/usr\/include\/[\w+./-]+$/.test(folder) && !folder.split('/').includes('..') ? folder : null;
}
