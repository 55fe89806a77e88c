// Scripted analysis: build systems, dependencies, architecture hazards, autotools helpers.
export { type Analysis, type AnalyzeTreeOptions, analyzeTree, findingsAtLeast } from './analyzeTree.ts';
export {
  BUILD_SYSTEM_TYPES,
  type BuildSystemCandidate,
  type BuildSystemDetector,
  type BuildSystemType,
  buildSystemDetectors,
  type DefaultPhase,
} from './buildSystems/index.ts';
export { type AutotoolsHelper, checkAutotoolsHelpers, knowsRiscv64 } from './checkAutotoolsHelpers.ts';
export {
  ContentsIndex,
  type ContentsLookup,
  contentsCachePath,
  ensureContentsIndex,
} from './dependencies/ContentsIndex.ts';
export type { Dependency, DependencyKind, RawDependency } from './dependencies/Dependency.ts';
export { resolveDependencies } from './dependencies/resolveDependencies.ts';
export {
  chooseBuildSystem,
  type DefaultPlan,
  defaultPlan,
  detectBuildSystems,
} from './detectBuildSystems.ts';
export { extractDependencies } from './extractDependencies.ts';
export { type Finding, type HazardRule, hazardRules, type Severity } from './hazards/index.ts';
export { describeRecognized, type RecognizedTree, recognizeTree } from './recognizeTree.ts';
export { type RefusedLink, SourceTree } from './SourceTree.ts';
export { scanArchitecture } from './scanArchitecture.ts';
