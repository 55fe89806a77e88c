import { SEVERITY_RANK } from '../../analysis/index.ts';
import { scriptedOf } from '../graph/nodes/scriptedAnalysis.ts';
import type { ArchitectureFinding, PortState } from '../state/PortState.ts';

/** Findings a prompt shows at most, most severe first. */
export const MAX_PROMPT_FINDINGS = 12;

/** The scripted analysis as a few lines of prompt text: build systems, dependencies, helpers. */
export function scriptedSummary(state: PortState): string {
  const scripted = scriptedOf(state);
  if (!scripted) return 'No scripted analysis is available.';
  const lines: string[] = [];
  lines.push(
    `Build systems detected (best first): ${
      scripted.buildSystems
        .slice(0, 5)
        .map((c) => `${c.type} in ${c.dir} (confidence ${c.confidence.toFixed(2)}; ${c.evidence.join(', ')})`)
        .join('; ') || 'none'
    }`,
  );
  lines.push(
    `Default plan: ${
      scripted.plan.phases.length
        ? scripted.plan.phases.map((p) => `${p.name}: ${p.commands.join(' && ')}`).join(' | ')
        : 'none for this build system'
    }`,
  );
  const deps = scripted.dependencies.slice(0, 40).map((d) => {
    const debian = d.debianPackages[0] ? ` -> ${d.debianPackages[0]}` : ' -> unresolved';
    return `${d.kind} ${d.name}${d.required ? '' : ' (optional)'}${debian}`;
  });
  lines.push(`Dependencies from the build files: ${deps.length ? deps.join(', ') : 'none found'}`);
  const stale = scripted.autotoolsHelpers.filter((h) => !h.knowsRiscv64).map((h) => h.file);
  if (stale.length) lines.push(`config.guess/config.sub without riscv64: ${stale.join(', ')}`);
  lines.push(`Files in the tree: ${scripted.files}`);
  return lines.join('\n');
}

/** The most severe architecture findings as prompt lines. */
export function topFindings(findings: readonly ArchitectureFinding[], limit = MAX_PROMPT_FINDINGS): string {
  const top = [...findings]
    .sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity])
    .slice(0, limit)
    .map(
      (f) =>
        `- [${f.severity}] ${f.kind} at ${f.file}${f.line ? `:${f.line}` : ''}: ${f.snippet.trim().slice(0, 120)}`,
    );
  const rest = findings.length - top.length;
  if (top.length === 0) return 'No architecture findings.';
  return `${top.join('\n')}${rest > 0 ? `\n(${rest} less severe findings not shown)` : ''}`;
}
