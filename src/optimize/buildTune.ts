import { withCompilerFlag, withEnv } from '../heuristics/index.ts';
import type { BuildPlan } from '../plan/index.ts';
import type { TargetFacts } from './OptimizationReport.ts';

/** Where PGO's profile files stay between the instrumented build and the optimised one. */
export const PGO_DIR = '/build/rvport-pgo';

const COMPILE = ['CFLAGS', 'CXXFLAGS'] as const;

/** One tune: the verified plan with other compiler settings. */
export interface TuneSpec {
  name: string;
  description: string;
  /** The plan the tune is built with (PGO: the optimised build, after the profile run). */
  plan: BuildPlan | null;
  /** PGO: the instrumented build whose workload run writes the profile. */
  profilePlan?: BuildPlan;
  /** Extensions the ELF attributes of every artifact must show. */
  requiredExtensions: string[];
  /** Why the tune is not built. */
  notBuilt?: string;
}

function flags(plan: BuildPlan, compile: string, link?: string): BuildPlan {
  const compiled = withCompilerFlag(plan, COMPILE, compile);
  // LDFLAGS has no default to keep (autoconf leaves it empty): the flag is appended or set
  return link ? withEnv(compiled, 'LDFLAGS', link, 'append') : compiled;
}

/**
 * The tunes to try on `facts`' target, each a variant of the verified plan: -O3, -march with the
 * probed extensions, both, LTO, PGO, clang. A tune the target or the sandbox cannot have is kept
 * with the reason it is not built, so the report says what was not tried and why.
 */
export function planTunes(plan: BuildPlan, facts: TargetFacts): TuneSpec[] {
  const march = facts.march ? `-march=${facts.march}` : null;
  const noMarch =
    'the probe found no -march beyond rv64gc that both the compiler accepts and the target executes';
  const tunes: TuneSpec[] = [
    { name: 'O3', description: 'optimisation level 3', plan: flags(plan, '-O3'), requiredExtensions: [] },
    march
      ? {
          name: 'march',
          description: `the probed ISA extensions (${facts.marchExtensions.join(', ')})`,
          plan: flags(plan, march),
          requiredExtensions: facts.marchExtensions,
        }
      : {
          name: 'march',
          description: 'the probed ISA extensions',
          plan: null,
          requiredExtensions: [],
          notBuilt: noMarch,
        },
    march
      ? {
          name: 'O3-march',
          description: 'optimisation level 3 and the probed ISA extensions',
          plan: flags(plan, `-O3 ${march}`),
          requiredExtensions: facts.marchExtensions,
        }
      : {
          name: 'O3-march',
          description: 'optimisation level 3 and the probed ISA extensions',
          plan: null,
          requiredExtensions: [],
          notBuilt: noMarch,
        },
    {
      name: 'LTO',
      // fat objects: static libraries stay usable by an ar and a linker without the LTO plugin
      description: 'link-time optimisation',
      plan: flags(plan, '-flto=auto -ffat-lto-objects', '-flto=auto'),
      requiredExtensions: [],
    },
    {
      // configure's test programs leave profiles too (conftest), which do not match the next
      // configure's: a coverage mismatch is an error by default, and here only noise
      name: 'PGO',
      description: 'profile-guided optimisation, the profile from one run of the workload',
      profilePlan: flags(plan, `-fprofile-generate=${PGO_DIR}`, `-fprofile-generate=${PGO_DIR}`),
      plan: flags(
        plan,
        `-fprofile-use=${PGO_DIR} -fprofile-partial-training -Wno-missing-profile -Wno-coverage-mismatch`,
        `-fprofile-use=${PGO_DIR}`,
      ),
      requiredExtensions: [],
    },
    facts.clang
      ? {
          name: 'clang',
          description: `the build with ${facts.clang}`,
          plan: { ...plan, env: { ...plan.env, CC: 'clang', CXX: 'clang++' } },
          requiredExtensions: [],
        }
      : {
          name: 'clang',
          description: 'the build with clang',
          plan: null,
          requiredExtensions: [],
          notBuilt:
            'the sandbox has no clang (the probe found none); installing the riscv64 clang and running it emulated is too slow for a tune',
        },
  ];
  return tunes;
}

/** The variables a tune sets beyond the verified plan's, for the report and the recipe. */
export function tuneEnv(base: BuildPlan, tune: BuildPlan): Record<string, string> {
  const changed: Record<string, string> = {};
  for (const [name, value] of Object.entries(tune.env ?? {}))
    if (base.env?.[name] !== value) changed[name] = value;
  return changed;
}
