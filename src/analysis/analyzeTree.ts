import type { BuildSystemCandidate } from './buildSystems/index.ts';
import { type AutotoolsHelper, checkAutotoolsHelpers } from './checkAutotoolsHelpers.ts';
import { extraCompiledLanguages } from './compiledLanguages.ts';
import { countCompiledSources } from './countCompiledSources.ts';
import type { ContentsLookup } from './dependencies/ContentsIndex.ts';
import type { Dependency } from './dependencies/Dependency.ts';
import { resolveDependencies } from './dependencies/resolveDependencies.ts';
import {
  chooseBuildSystem,
  type DefaultPlan,
  defaultPlan,
  detectBuildSystems,
} from './detectBuildSystems.ts';
import { extractDependencies } from './extractDependencies.ts';
import { type Finding, SEVERITY_RANK, type Severity } from './hazards/index.ts';
import { type LanguageUse, languagesTheBuildNames } from './languagesTheBuildNames.ts';
import { type ProjectUrl, projectNames, projectUrls } from './projectUrls.ts';
import { type RecognizedTree, recognizeTree } from './recognizeTree.ts';
import { type RefusedLink, SourceTree } from './SourceTree.ts';
import { scanArchitecture } from './scanArchitecture.ts';

/** The scripted analysis of a source tree (`rvport analyze --json` prints it). */
export interface Analysis {
  name: string;
  root: string;
  /** The chosen build system. */
  buildSystem: Pick<BuildSystemCandidate, 'type' | 'confidence' | 'dir'> & BuildSystemCandidate;
  /** Every candidate, best first. */
  buildSystems: BuildSystemCandidate[];
  plan: DefaultPlan;
  /** For a tree of no known build system: what it is and what would build it (from its files). */
  recognized?: RecognizedTree | null;
  dependencies: Dependency[];
  /** Which data resolved the dependencies. */
  dependencyResolution: { contents: 'used' | 'unavailable'; reason: string | null };
  findings: Finding[];
  /** Findings per severity. */
  findingCounts: Record<Severity, number>;
  autotoolsHelpers: AutotoolsHelper[];
  files: number;
  /** Files of compiled languages (C, C++, assembly, Fortran, Go, Rust, …): 0 means data or scripts only. */
  compiledSources: number;
  /**
   * Compiled languages of the tree beyond C and C++ (Objective-C, Ada), each with the build file
   * that names it: only those does the build need a compiler for.
   */
  extraLanguages: LanguageUse[];
  /** What the tree says of its own project: URLs (with the file saying so) and declared names. */
  project: { urls: ProjectUrl[]; names: string[] };
  /** Symbolic links left out because they lead out of the tree: their targets were never read. */
  refusedLinks: RefusedLink[];
  durationMs: number;
}

export interface AnalyzeTreeOptions {
  name: string;
  /** The riscv64 Contents index, or null to resolve with the alias table only. */
  contents?: ContentsLookup | null;
  /** Why `contents` is null, for the report. */
  contentsUnavailableReason?: string | null;
}

/** Runs every scripted analysis over a tree on disk. Reads only; never runs repository code. */
export function analyzeTree(root: string, options: AnalyzeTreeOptions): Analysis {
  const started = performance.now();
  const tree = SourceTree.fromDisk(root);
  const buildSystems = detectBuildSystems(tree);
  const buildSystem = chooseBuildSystem(buildSystems);
  const contents = options.contents ?? null;
  const dependencies = resolveDependencies(
    extractDependencies(tree, buildSystem.dir, buildSystem.type),
    contents,
  );
  const findings = scanArchitecture(tree);
  const findingCounts = { info: 0, low: 0, medium: 0, high: 0 } satisfies Record<Severity, number>;
  for (const f of findings) findingCounts[f.severity]++;
  return {
    name: options.name,
    root,
    buildSystem,
    buildSystems,
    plan: defaultPlan(buildSystem),
    recognized: buildSystem.type === 'unknown' ? recognizeTree(tree) : null,
    dependencies,
    dependencyResolution: {
      contents: contents ? 'used' : 'unavailable',
      reason: contents ? null : (options.contentsUnavailableReason ?? 'no Contents index given'),
    },
    findings,
    findingCounts,
    autotoolsHelpers: checkAutotoolsHelpers(tree),
    files: tree.files.length,
    compiledSources: countCompiledSources(tree),
    extraLanguages: languagesTheBuildNames(tree, buildSystem, extraCompiledLanguages(tree)),
    project: { urls: projectUrls(tree, options.name), names: projectNames(tree) },
    refusedLinks: [...tree.refusedLinks],
    durationMs: Math.round(performance.now() - started),
  };
}

/** Findings at or above a severity, for summaries. */
export function findingsAtLeast(findings: readonly Finding[], severity: Severity): Finding[] {
  return findings.filter((f) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK[severity]);
}
