import type { ArchitectureFinding } from '../state/PortState.ts';
import type { HazardEvidence } from './DifferentialRecord.ts';

const WARNING_AT = /^(?:\.\.?\/)*([^\s:]+):(\d+)(?::\d+)?:\s*warning:/;

function sameFile(a: string, b: string): boolean {
  const strip = (p: string) => p.replace(/^(\.\.?\/)+/, '');
  const x = strip(a);
  const y = strip(b);
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

/**
 * The hazard warnings of the build beside the scan's char-signedness findings: a warning and a
 * finding on the same line become one entry (both point at it); each left alone is an entry of
 * its own. Paths are compared from the end (the compiler names them from the build folder).
 */
export function pairHazardEvidence(
  warnings: readonly string[],
  findings: readonly ArchitectureFinding[],
): HazardEvidence[] {
  const signedness = findings.filter((f) => f.kind === 'char-signedness' && f.line !== null);
  const used = new Set<ArchitectureFinding>();
  const evidence: HazardEvidence[] = [];
  for (const warning of warnings) {
    const at = WARNING_AT.exec(warning);
    const finding = at
      ? signedness.find((f) => !used.has(f) && f.line === Number(at[2]) && sameFile(f.file, at[1] ?? ''))
      : undefined;
    if (finding) used.add(finding);
    evidence.push({
      location: finding ? `${finding.file}:${finding.line}` : at ? `${at[1]}:${at[2]}` : '(build log)',
      warning,
      ...(finding ? { finding: `${finding.snippet}: ${finding.message}` } : {}),
    });
  }
  for (const f of signedness)
    if (!used.has(f))
      evidence.push({ location: `${f.file}:${f.line}`, finding: `${f.snippet}: ${f.message}` });
  // the pairs first: a warning and a finding on one line are the strongest evidence
  return evidence.sort((a, b) => Number(!!b.warning && !!b.finding) - Number(!!a.warning && !!a.finding));
}
