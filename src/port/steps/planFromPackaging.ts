import { existsConfined } from '../../fs/index.ts';
import { DEBIAN_RULES_BUILD, debianBuildFromPackaging } from '../../heuristics/index.ts';
import type { BuildPlan, PortState } from '../state/PortState.ts';

/**
 * The plan of a source whose upstream build rvport has no default plan for (an unknown build
 * system, a qmake project) when Debian's packaging of it is at hand: Debian's own build
 * (debian/rules build-arch), with the packaging as the port's next patch. Null without usable
 * packaging, or when the tree has a debian/ folder of its own (the upstream's, not Debian's).
 */
export function planFromPackaging(
  state: PortState,
): { plan: BuildPlan; patches: PortState['patches']; description: string } | null {
  const dir = state.debian?.packagingDir;
  const tree = state.source.dir;
  if (!dir || !tree || existsConfined(tree, 'debian', { directory: true })) return null;
  const base: BuildPlan = {
    buildSystem: DEBIAN_RULES_BUILD,
    dir: '.',
    phases: [],
    packages: [],
    expectedArtifacts: [],
    origin: 'default',
  };
  const built = debianBuildFromPackaging(dir, base, state.patches.length);
  if ('refused' in built) return null;
  return { plan: built.plan, patches: [...state.patches, built.patch], description: built.description };
}
