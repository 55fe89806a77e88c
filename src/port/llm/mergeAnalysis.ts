import { reviewPackageNames } from '../../debian/reviewPackageNames.ts';
import type { ScriptedAnalysis } from '../graph/nodes/scriptedAnalysis.ts';
import type { PackageAnalysis } from '../state/PortState.ts';
import type { PackageAnalysisAnswer } from './analystPrompt.ts';
import { existingSourceDir } from './existingSourceDir.ts';

/** Dependencies and artifacts taken from one answer, at most. */
const MAX_LLM_ITEMS = 20;

export interface MergedAnalysis {
  analysis: PackageAnalysis;
  /** What was not taken from the answer, and why (for the audit). */
  rejected: string[];
}

/**
 * The analyst's answer merged with the scripted analysis (the script stays the ground truth):
 * - the build system is the answer's when it agrees with the script, or when the script detected
 *   that system too and the answer is at least as confident (the seed's rule); a system the
 *   scan does not know keeps the scripted one;
 * - the folder must exist in the tree; for a detected system it must be one of its detected
 *   folders (else the best one of them);
 * - dependencies are the script's plus the answer's valid Debian names that apt in the sandbox
 *   can install (`installable`, from the rootfs image's package lists; null: not checked).
 */
export function mergeAnalysis(
  fallback: PackageAnalysis,
  scripted: ScriptedAnalysis | null,
  answer: PackageAnalysisAnswer,
  sourceRoot: string | undefined,
  installable: ReadonlySet<string> | null = null,
): MergedAnalysis {
  const rejected: string[] = [];
  const candidates = scripted?.buildSystems ?? [];
  const named = answer.build_system.trim().toLowerCase();
  const detected = candidates.filter((c) => c.type === named);

  let buildSystem = fallback.buildSystem;
  let confidence = fallback.confidence;
  if (named === fallback.buildSystem) {
    confidence = Math.max(fallback.confidence, answer.confidence);
  } else if (detected.length > 0 && named !== 'unknown' && answer.confidence >= fallback.confidence) {
    buildSystem = named;
    confidence = answer.confidence;
  } else {
    rejected.push(
      detected.length === 0
        ? `build system "${answer.build_system}" is not one the scan detected; kept ${fallback.buildSystem}`
        : `build system ${named} (confidence ${answer.confidence}) is less sure than the scan's ${fallback.buildSystem} (${fallback.confidence})`,
    );
  }

  const llmDir = existingSourceDir(sourceRoot, answer.dir);
  if (llmDir === null) rejected.push(`folder "${answer.dir}" does not exist in the tree`);
  const dirsOfSystem = candidates.filter((c) => c.type === buildSystem).map((c) => c.dir);
  let dir: string;
  if (dirsOfSystem.length === 0) dir = llmDir ?? fallback.dir;
  else if (llmDir !== null && dirsOfSystem.includes(llmDir)) dir = llmDir;
  else {
    dir = buildSystem === fallback.buildSystem ? fallback.dir : (dirsOfSystem[0] as string);
    if (llmDir !== null && llmDir !== dir)
      rejected.push(`folder ${llmDir} holds no ${buildSystem} build the scan detected; kept ${dir}`);
  }

  const names = answer.dependencies.map((d) => d.trim());
  const reviewed = reviewPackageNames(names, installable);
  rejected.push(...reviewed.problems);
  const dependencies = [
    ...new Set([...fallback.dependencies, ...reviewed.accepted.slice(0, MAX_LLM_ITEMS)]),
  ].sort();

  const notes = [...fallback.notes];
  if (answer.purpose.trim()) notes.push(`purpose: ${answer.purpose.trim()}`);
  for (const risk of answer.riscv64_risks.slice(0, MAX_LLM_ITEMS)) notes.push(`riscv64 risk: ${risk.trim()}`);

  return {
    analysis: {
      buildSystem,
      confidence,
      dir,
      needsCustomPlan: answer.needs_custom_plan,
      llmGrounded: true,
      dependencies,
      expectedArtifacts: [...new Set(answer.expected_artifacts.map((a) => a.trim()).filter(Boolean))].slice(
        0,
        MAX_LLM_ITEMS,
      ),
      notes,
    },
    rejected,
  };
}
