import { estimateTokens } from '../../llm/index.ts';
import type { FewShotExample } from './fewShotExample.ts';

/** Characters per token the budget is turned into when a part must be cut (errs short). */
const CHARS_PER_TOKEN = 3.5;
/** A cut part shorter than this says nothing; it is left out instead. */
const MIN_PART_TOKENS = 24;

/**
 * Examples as prompt text within `budgetTokens`, the budget shared evenly between them. Each
 * example's parts go in order of use (what it was, the plan, the errors, the repairs, the LLM
 * fixes, the patches); a part that does not fit whole is cut, and what follows it is left out.
 */
export function renderFewShot(examples: FewShotExample[], budgetTokens: number): string {
  if (examples.length === 0 || budgetTokens <= 0) return '';
  const share = Math.floor(budgetTokens / examples.length);
  return examples
    .map((example, i) => renderOne(example, i + 1, share))
    .filter(Boolean)
    .join('\n\n');
}

function renderOne(example: FewShotExample, index: number, budget: number): string {
  const parts = exampleParts(example, index);
  const kept: string[] = [];
  let used = 0;
  for (const part of parts) {
    const cost = estimateTokens(`${part}\n`);
    if (used + cost <= budget) {
      kept.push(part);
      used += cost;
      continue;
    }
    const left = budget - used - 2;
    if (left >= MIN_PART_TOKENS) kept.push(`${part.slice(0, Math.floor(left * CHARS_PER_TOKEN) - 2)}…`);
    break;
  }
  return kept.join('\n');
}

function exampleParts(example: FewShotExample, index: number): string[] {
  const parts = [
    `### Example ${index}: ${example.package} (${example.buildSystem}, sandbox image ${example.imageId || 'unknown'}), verified`,
  ];
  const plan = example.plan;
  if (plan) {
    const phases = plan.phases
      .filter((p) => p.commands.length > 0)
      .map((p) => `  ${p.name}: ${p.commands.join(' && ')}`);
    parts.push(
      [
        `Plan that worked (in ${plan.dir ?? '.'}${plan.packages.length ? `; packages: ${plan.packages.join(' ')}` : ''}):`,
        ...phases,
      ].join('\n'),
    );
  }
  if (example.errors.length)
    parts.push(
      [
        'Errors on the way:',
        ...example.errors.map((e) => `  - ${e.evidence ? `${e.evidence} — ` : ''}${e.signature}`),
      ].join('\n'),
    );
  if (example.repairs.length)
    parts.push(
      [
        'Repairs that were applied:',
        ...example.repairs.map(
          (r) =>
            `  - ${r.source} ${r.name}: ${r.description}${r.commands.length ? ` [${r.commands.join(' && ')}]` : ''}`,
        ),
      ].join('\n'),
    );
  for (const fix of example.llmFixes) {
    parts.push(
      [
        `LLM fix (${fix.outcome}): ${fix.description}`,
        ...(fix.commands.length ? [`  commands: ${fix.commands.join(' && ')}`] : []),
        ...(fix.patch ? ['```diff', fix.patch.trimEnd(), '```'] : []),
      ].join('\n'),
    );
  }
  for (const patch of example.patches)
    parts.push([`Patch ${patch.name}:`, '```diff', patch.diff.trimEnd(), '```'].join('\n'));
  return parts;
}
