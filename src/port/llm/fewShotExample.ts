import { join } from 'node:path';
import { z } from 'zod';
import type { PortState } from '../state/PortState.ts';

/** Errors of a port kept in its example, the last ones (what the repairs answered). */
export const FEW_SHOT_ERRORS = 5;
/** A patch longer than this is cut in the saved example (the patch file keeps it whole). */
const MAX_SAVED_DIFF_CHARS = 20_000;

const PlanSchema = z
  .object({
    buildSystem: z.string().optional(),
    dir: z.string().optional(),
    phases: z.array(z.object({ name: z.string(), commands: z.array(z.string()) })).default([]),
    packages: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).optional(),
  })
  .loose();

/**
 * A verified port as a lesson for later ones (RVPORT_HOME/fewshot/BUILD_SYSTEM/PACKAGE.json): the
 * plan that worked, the errors on the way (category, signature, the deciding line), the repairs
 * that were applied, every LLM fix with its outcome, and the patches. Files from older versions lack the newer
 * fields; they read as empty.
 */
export const FewShotExampleSchema = z.object({
  package: z.string(),
  imageId: z.string().default(''),
  buildSystem: z.string().default('unknown'),
  plan: PlanSchema.nullable().default(null),
  errors: z
    .array(z.object({ category: z.string(), signature: z.string(), evidence: z.string().optional() }))
    .default([]),
  repairs: z
    .array(
      z.object({
        source: z.string(),
        name: z.string(),
        description: z.string().default(''),
        commands: z.array(z.string()).default([]),
      }),
    )
    .default([]),
  llmFixes: z
    .array(
      z.object({
        description: z.string(),
        commands: z.array(z.string()).default([]),
        patch: z.string().optional(),
        outcome: z.string().default('applied'),
      }),
    )
    .default([]),
  patches: z.array(z.object({ name: z.string(), diff: z.string() })).default([]),
});
export type FewShotExample = z.infer<typeof FewShotExampleSchema>;

export function fewShotDir(home: string): string {
  return join(home, 'fewshot');
}

export function fewShotPath(home: string, buildSystem: string, pkg: string): string {
  return join(fewShotDir(home), buildSystem, `${pkg}.json`);
}

/** The example a verified port leaves behind. */
export function toFewShotExample(state: PortState, imageId: string): FewShotExample {
  const applied = state.fixAttempts.filter((f) => f.outcome === 'applied');
  return {
    package: state.source.name,
    imageId,
    buildSystem: state.plan?.buildSystem ?? 'unknown',
    plan: state.plan ? { ...state.plan } : null,
    errors: state.errors.slice(-FEW_SHOT_ERRORS).map((e) => ({
      category: e.category,
      signature: e.signature,
      ...(e.evidence ? { evidence: e.evidence } : {}),
    })),
    repairs: applied.map((f) => ({
      source: f.source,
      name: f.name,
      description: f.description,
      commands: f.commands ?? [],
    })),
    llmFixes: state.fixAttempts
      .filter((f) => f.source === 'llm')
      .map((f) => ({
        description: f.description,
        commands: f.commands ?? [],
        ...(f.patch ? { patch: clip(f.patch) } : {}),
        outcome: f.outcome,
      })),
    patches: state.patches.map((p) => ({ name: p.name, diff: clip(p.diff) })),
  };
}

function clip(text: string): string {
  return text.length > MAX_SAVED_DIFF_CHARS ? `${text.slice(0, MAX_SAVED_DIFF_CHARS)}\n… (cut)\n` : text;
}
