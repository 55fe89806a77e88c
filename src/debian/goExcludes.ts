import { joinContinuedLines, makeWords } from './makeText.ts';

/** A pattern rvport passes on: an import path or a plain regular expression, nothing a shell or make would expand. */
const PATTERN = /^[A-Za-z0-9._/^$*+?|()-]+$/;

/**
 * The packages a debian/rules keeps out of a Go build (`export DH_GOLANG_EXCLUDES := cmd/atlas
 * internal/integration`, continued over `\`-ended lines, set with `=`, `:=` or `+=`): dh-golang
 * drops every package whose import path a pattern matches, usually commands or integration tests
 * whose dependencies Debian does not package. Patterns that use make variables or quotes are
 * left out.
 */
export function goExcludes(rules: string): string[] {
  const joined = joinContinuedLines(rules);
  const found: string[] = [];
  for (const m of joined.matchAll(/^[ \t]*(?:export[ \t]+)?DH_GOLANG_EXCLUDES[ \t]*(\+=|:=|\?=|=)(.*)$/gm)) {
    const words = makeWords(m[2] ?? '');
    if (m[1] !== '+=') found.length = 0;
    found.push(...words.filter((w) => PATTERN.test(w) && !/\$[({]/.test(w)));
  }
  return [...new Set(found)];
}
