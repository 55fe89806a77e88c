import { addRiscv64Architecture } from '../debian/addRiscv64Architecture.ts';
import { archDependentBinaries } from '../debian/archDependentBinaries.ts';
import { dhInternalOptions, dhSequenceOptions } from '../debian/dhSequenceOptions.ts';
import { packagingPatch } from '../debian/packagingPatch.ts';
import { packagingToolDepends } from '../debian/parseBuildDepends.ts';
import type { BuildPlan, SourcePatch } from '../plan/index.ts';
import { patchFileName } from '../plan/index.ts';
import { shellQuote } from '../process/shellQuote.ts';
import { MAX_CONTROL_BYTES, readPackagingFile } from '../sources/index.ts';
import { installForRepair } from './installForRepair.ts';
import { withPackages } from './planEdits.ts';
import {
  BUILD_PHASES,
  DEBIAN_BUILD_SYSTEM,
  NOTHING_PROVEN_PHASE,
  type RecoveryHeuristic,
} from './RecoveryHeuristic.ts';

export const DEBIAN_RULES_BUILD = DEBIAN_BUILD_SYSTEM;

/** The patch that adds Debian's packaging, `NNNN-packaging-from-debian.patch`: apart from Debian's quilt patches (`NNNN-debian-…`). */
const PACKAGING_PATCH_SUMMARY = 'packaging from debian';
export const PACKAGING_PATCH = /^[0-9]{4,}-packaging-from-debian\.patch$/;

/**
 * The test step of Debian's build, as dh's sequence runs it: the packaging's hooks around it
 * (`execute_before_dh_auto_test`, `execute_after_…`), and its override of `dh_auto_test` or
 * `dh_auto_test` itself, each through make, so that what debian/rules exports reaches them
 * (`DH_GOLANG_EXCLUDES`), and with the options dh hands its commands (`--builddirectory=_build`)
 * in DH_INTERNAL_OPTIONS, as dh passes them into an override target.
 */
export function debianRulesTestCommand(dhOptions: readonly string[]): string {
  const internal = dhInternalOptions(dhOptions);
  const script = [
    'has() { grep -q "^$1[[:space:]]*:" debian/rules; }',
    'defined() { has "$1" || has "$1-arch"; }',
    'run() { if has "$1-arch"; then make -f debian/rules "$1-arch"; else make -f debian/rules "$1"; fi; }',
    'if defined execute_before_dh_auto_test; then run execute_before_dh_auto_test || exit 1; fi',
    "if defined override_dh_auto_test; then run override_dh_auto_test || exit 1; else printf 'rvport-dh-auto-test:\\n\\tdh_auto_test\\n' | make -f debian/rules -f - rvport-dh-auto-test || exit 1; fi",
    'if defined execute_after_dh_auto_test; then run execute_after_dh_auto_test || exit 1; fi',
  ].join('\n');
  const options = `DH_INTERNAL_OPTIONS="$(printf '${internal.map(() => '%s').join('\\036')}' ${internal.map(shellQuote).join(' ')})"`;
  return `DEB_BUILD_OPTIONS="parallel=$(nproc)" ${options} sh -c ${shellQuote(script)}`;
}

/**
 * The plan of Debian's own build: `debian/rules build-arch` with the tests held back (they are
 * the test step's: debianRulesTestCommand). rvport's prepare phase stays; the packages so far
 * stay, with the packaging tools debian/control names.
 */
export function debianRulesPlan(
  plan: BuildPlan,
  tools: readonly string[],
  dhOptions: readonly string[] = [],
): BuildPlan {
  return withPackages(
    {
      ...plan,
      buildSystem: DEBIAN_RULES_BUILD,
      dir: '.',
      phases: [
        ...plan.phases.filter((p) => p.name === 'prepare'),
        {
          name: 'build',
          commands: ['DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" make -f debian/rules build-arch'],
        },
        { name: 'test', commands: [debianRulesTestCommand(dhOptions)] },
      ],
    },
    ['debhelper', 'dpkg-dev', ...tools],
  );
}

/**
 * A `debian:` source whose upstream build fails and whose packaging is at hand: the package is
 * built the way Debian builds it, by its own debian/rules in the sandbox (bundled parts built
 * first, code generated, switches Debian sets), before the port escalates. The packaging goes
 * into the tree as a patch (patches/NNNN-packaging-from-debian.patch), so a replay and a cached recipe build it the same way.
 * Last of all the repairs: an upstream build that can be mended is the better recipe.
 */
export const debianRulesBuild: RecoveryHeuristic = {
  name: 'debian-rules-build',
  description: "build a debian: source with Debian's own debian/rules when its upstream build fails",
  match(ctx) {
    const nothingProven = ctx.failure.phase === NOTHING_PROVEN_PHASE;
    if (!(BUILD_PHASES.has(ctx.failure.phase) || nothingProven) || ctx.failure.timedOut) return null;
    if (ctx.plan.buildSystem === DEBIAN_RULES_BUILD || !ctx.debianPackaging) return null;
    if (ctx.patches.some((p) => PACKAGING_PATCH.test(p.name))) return null;
    if (nothingProven) {
      // Debian's build of it makes machine code: a package of it is not Architecture: all
      const binaries = archBinaries(ctx.debianPackaging);
      if (binaries.length === 0) return null;
      return {
        key: 'debian/rules',
        reason: `the upstream ${ctx.plan.buildSystem} build succeeded but proved no riscv64 output (${ctx.failure.output}); Debian's packaging builds machine code for ${binaries.slice(0, 3).join(', ')}${binaries.length > 3 ? ', …' : ''}`,
      };
    }
    return {
      key: 'debian/rules',
      reason: `the upstream ${ctx.plan.buildSystem} build failed in the ${ctx.failure.phase} phase; Debian's packaging of the source is at hand`,
    };
  },
  async apply(ctx) {
    const dir = ctx.debianPackaging;
    if (!dir) return { applied: false, description: 'no Debian packaging', commands: [] };
    const own = await ctx.sandbox.run(['test', '-e', `${ctx.srcDir}/debian`]);
    if (own.exitCode === 0)
      return { applied: false, description: 'the tree has a debian/ folder of its own', commands: [] };
    const built = debianBuildFromPackaging(dir, ctx.plan, ctx.patches.length);
    if ('refused' in built) return { applied: false, description: built.refused, commands: [] };
    const packages = built.plan.packages.filter((p) => !ctx.plan.packages.includes(p));
    const installed = packages.length
      ? await installForRepair(ctx, packages, "installing Debian's packaging tools failed")
      : undefined;
    if (installed?.failed) return installed.failed;
    return {
      applied: true,
      description: built.description,
      commands: installed ? [installed.command] : [],
      plan: built.plan,
      patches: [built.patch],
    };
  },
};

/**
 * Debian's own build of a source from its kept packaging: the plan (debianRulesPlan over `base`,
 * with the packaging tools debian/control names) and the packaging as the port's next patch
 * (`NNNN-packaging-from-debian.patch`, numbered after `patchCount` patches), or why not.
 */
export function debianBuildFromPackaging(
  dir: string,
  base: BuildPlan,
  patchCount: number,
): { plan: BuildPlan; patch: SourcePatch; description: string } | { refused: string } {
  let tools: string[];
  try {
    tools = packagingToolDepends(readPackagingFile(dir, 'control', MAX_CONTROL_BYTES));
  } catch (error) {
    return { refused: `debian/control: ${(error as Error).message}` };
  }
  // the packages Debian builds for a list of architectures without riscv64 are built here too
  let gained: string[] = [];
  const patch = packagingPatch(dir, {
    control: (text) => {
      const added = addRiscv64Architecture(text);
      gained = added.packages;
      return added.control;
    },
  });
  if (!patch.files.includes('rules')) return { refused: 'the packaging has no usable debian/rules' };
  const plan = debianRulesPlan(base, tools, dhSequenceOptions(readRules(dir)));
  const name = patchFileName(patchCount, PACKAGING_PATCH_SUMMARY);
  const riscv = gained.length
    ? `, with riscv64 added to the architectures of ${gained.join(', ')} in its debian/control (Debian does not build ${gained.length === 1 ? 'it' : 'them'} for riscv64)`
    : '';
  const left = patch.leftOut.length
    ? `; left out of it: ${patch.leftOut.map((l) => `debian/${l.path} (${l.reason})`).join(', ')}`
    : '';
  return {
    plan,
    patch: { name, diff: patch.diff },
    description: `build with Debian's own debian/rules (build-arch, then dh_auto_test as the test step); the packaging (${patch.files.length} files, without debian/patches) goes in as ${name}${riscv}${left}`,
  };
}

/** The binary packages the kept debian/control builds machine code for (none when unreadable). */
function archBinaries(dir: string): string[] {
  try {
    return archDependentBinaries(readPackagingFile(dir, 'control', MAX_CONTROL_BYTES));
  } catch {
    return [];
  }
}

/** The kept debian/rules, or nothing when it cannot be read (the packaging patch says why). */
function readRules(dir: string): string {
  try {
    return readPackagingFile(dir, 'rules', MAX_CONTROL_BYTES);
  } catch {
    return '';
  }
}
