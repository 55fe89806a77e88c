import { scriptedOf } from '../graph/nodes/scriptedAnalysis.ts';
import type { PackageAnalysis, PortState } from '../state/PortState.ts';

/** The package analysis from the scripted analysis alone (no LLM): the analyst's fallback. */
export function deterministicAnalysis(state: PortState): PackageAnalysis | null {
  const scripted = scriptedOf(state);
  if (!scripted) return null;
  const packages = scripted.dependencies
    .filter((d) => d.required && d.debianPackages.length > 0)
    .map((d) => d.debianPackages[0] as string);
  const unresolved = scripted.dependencies.filter((d) => d.required && d.debianPackages.length === 0);
  return {
    buildSystem: scripted.buildSystem.type,
    confidence: scripted.buildSystem.confidence,
    dir: scripted.buildSystem.dir,
    needsCustomPlan: false,
    llmGrounded: false,
    dependencies: [...new Set(packages)].sort(),
    expectedArtifacts: [],
    notes: unresolved.length
      ? [`unresolved dependencies: ${unresolved.map((d) => `${d.kind} ${d.name}`).join(', ')}`]
      : [],
  };
}
