// Scripted analysis: build systems, dependencies, architecture hazards, autotools helpers.
export { type Analysis, type AnalyzeTreeOptions, analyzeTree, findingsAtLeast } from './analyzeTree.ts';
export { AUTOCONF_MARKER } from './buildSystems/autotools.ts';
export { goBuildCommands, goPackages } from './buildSystems/go.ts';
export {
  BUILD_SYSTEM_TYPES,
  type BuildSystemCandidate,
  type BuildSystemDetector,
  type BuildSystemType,
  buildSystemDetectors,
  type DefaultPhase,
} from './buildSystems/index.ts';
export { type AutotoolsHelper, checkAutotoolsHelpers, knowsRiscv64 } from './checkAutotoolsHelpers.ts';
export type { ExtraLanguage } from './compiledLanguages.ts';
export {
  ContentsIndex,
  type ContentsLookup,
  contentsCachePath,
  ensureContentsIndex,
} from './dependencies/ContentsIndex.ts';
export type { Dependency, DependencyKind, RawDependency } from './dependencies/Dependency.ts';
export type { LockedCrate } from './dependencies/parseCargoLock.ts';
export { fromRegistry, parseCargoLock } from './dependencies/parseCargoLock.ts';
export { DEBIAN_CARGO_REGISTRY } from './dependencies/resolveCrates.ts';
export { resolveDependencies } from './dependencies/resolveDependencies.ts';
export {
  chooseBuildSystem,
  type DefaultPlan,
  defaultPlan,
  detectBuildSystems,
} from './detectBuildSystems.ts';
export { extractDependencies } from './extractDependencies.ts';
export { type Finding, type HazardRule, hazardRules, SEVERITY_RANK, type Severity } from './hazards/index.ts';
export type { LanguageUse } from './languagesTheBuildNames.ts';
export { languagesNeeded } from './languagesTheBuildNames.ts';
export { describeRecognized, type RecognizedTree, recognizeTree } from './recognizeTree.ts';
export { type RefusedLink, SourceTree } from './SourceTree.ts';
export { languageOf, scanArchitecture } from './scanArchitecture.ts';
