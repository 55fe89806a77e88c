import {
  type BuildSystemCandidate,
  type BuildSystemDetector,
  buildSystemDetectors,
  type DefaultPhase,
} from './buildSystems/index.ts';
import { depthOf, type SourceTree } from './SourceTree.ts';
import { preferUpstreamBuild } from './upstreamPreference.ts';

/** Builds deeper than this below the root are not looked for (arj keeps its in gnu/). */
export const MAX_BUILD_DEPTH = 2;
/** Confidence lost per folder level below the root: the root's build is usually the build. */
export const DEPTH_PENALTY = 0.15;
/** Folders that hold tests, examples or bundled code rather than the package's build. */
const AUXILIARY_DIR =
  /^(tests?|testing|examples?|samples?|demos?|docs?|contrib|third[_-]?party|3rd[_-]?party|vendor|deps|external|fuzz(ing)?|bench(marks?)?|testdata|tools?|firmware|bootloader|extras?|android|windows|win32|macosx?|ios|msvc.*)$/i;
const AUXILIARY_PENALTY = 0.2;
/**
 * A build file that sets up a cross build for another machine: a CMake toolchain file or system
 * name, or a bare-metal cross compiler (`arm-none-eabi-gcc`, `riscv32-unknown-elf-`). In a
 * subfolder that is the firmware of a device the package talks to, not the package's build.
 */
const CROSS_BUILD =
  /\bset\s*\(\s*CMAKE_(TOOLCHAIN_FILE|SYSTEM_NAME)\b|\b(arm|aarch64|avr|xtensa|msp430|riscv(32|64)?|mips|or1k)[\w]*-(none|unknown)-(eabi|elf)[\w-]*/i;
const CROSS_BUILD_PENALTY = 0.2;
/** When the root itself builds, a build in a subfolder is most likely an alternative or a part. */
export const ROOT_BUILD_PENALTY = 0.1;

export const UNKNOWN_BUILD: BuildSystemCandidate = {
  type: 'unknown',
  confidence: 0,
  dir: '.',
  evidence: [],
  details: {},
};

/**
 * Every build system found in the root and the folders up to `MAX_BUILD_DEPTH` below it, best
 * first. A system already found in a parent folder is not reported again for its subfolders
 * (a CMake project's nested CMakeLists.txt belong to it). Ties keep the detectors' order.
 */
export function detectBuildSystems(
  tree: SourceTree,
  detectors: readonly BuildSystemDetector[] = buildSystemDetectors,
): BuildSystemCandidate[] {
  const found: (BuildSystemCandidate & { order: number })[] = [];
  for (const dir of tree.directories(MAX_BUILD_DEPTH)) {
    const depth = depthOf(dir);
    const auxiliary = dir.split('/').some((part) => AUXILIARY_DIR.test(part));
    detectors.forEach((detector, order) => {
      const inParent = found.some((c) => c.type === detector.type && isInside(dir, c.dir));
      if (inParent) return;
      const hit = detector.detect(tree, dir);
      if (!hit) return;
      const cross = depth > 0 && hit.evidence.some((file) => CROSS_BUILD.test(tree.read(file) ?? ''));
      const confidence =
        hit.confidence -
        depth * DEPTH_PENALTY -
        (auxiliary ? AUXILIARY_PENALTY : 0) -
        (cross ? CROSS_BUILD_PENALTY : 0);
      found.push({
        type: detector.type,
        confidence: Math.max(0.05, Math.round(confidence * 100) / 100),
        dir: dir === '' ? '.' : dir,
        evidence: hit.evidence,
        details: hit.details ?? {},
        order,
      });
    });
  }
  const rootBuilds = found.some((c) => c.dir === '.');
  for (const c of found) {
    if (rootBuilds && c.dir !== '.')
      c.confidence = Math.max(0.05, Math.round((c.confidence - ROOT_BUILD_PENALTY) * 100) / 100);
  }
  preferUpstreamBuild(tree, found);
  found.sort((a, b) => b.confidence - a.confidence || a.order - b.order || (a.dir < b.dir ? -1 : 1));
  return found.map(({ order: _order, ...candidate }) => candidate);
}

function isInside(dir: string, parent: string): boolean {
  if (parent === '.') return true;
  return dir === parent || dir.startsWith(`${parent}/`);
}

/** The build system rvport would use: the best candidate, or `unknown`. */
export function chooseBuildSystem(candidates: readonly BuildSystemCandidate[]): BuildSystemCandidate {
  return candidates[0] ?? UNKNOWN_BUILD;
}

export interface DefaultPlan {
  buildSystem: BuildSystemCandidate['type'];
  /** Folder the commands run in, relative to the source root. */
  dir: string;
  phases: DefaultPhase[];
}

/** The standard recipe of the chosen system (no LLM); `unknown` has none. */
export function defaultPlan(
  candidate: BuildSystemCandidate,
  detectors: readonly BuildSystemDetector[] = buildSystemDetectors,
): DefaultPlan {
  const detector = detectors.find((d) => d.type === candidate.type);
  return {
    buildSystem: candidate.type,
    dir: candidate.dir,
    phases: detector ? detector.defaultPlan(candidate) : [],
  };
}
