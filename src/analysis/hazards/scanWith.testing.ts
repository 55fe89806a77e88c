import { SourceTree } from '../SourceTree.ts';
import { languageOf } from '../scanArchitecture.ts';
import type { Finding, HazardRule } from './HazardRule.ts';

/** Runs one rule over a single in-memory file (file rules) or a small tree (tree rules). */
export function scanWith(rule: HazardRule, files: Record<string, string>): Finding[] {
  const findings: Finding[] = [];
  for (const [path, text] of Object.entries(files)) {
    const language = languageOf(path);
    if (language && rule.scanFile)
      findings.push(...rule.scanFile({ path, text, lines: text.split('\n'), language }));
  }
  if (rule.scanTree) findings.push(...rule.scanTree(SourceTree.fromFiles(files)));
  return findings;
}
