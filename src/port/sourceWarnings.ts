/** Warnings of Debian's packaging (and of a crate package's tree): the report's Debian section says them. */
const DEBIAN_SECTION = /^Debian's packaging|^the source package's files are not on the mirror/;

/** What acquiring the source warned of that the port reports among the source's facts. */
export function sourceWarnings(warnings: readonly string[]): string[] {
  return [...new Set(warnings.filter((w) => !DEBIAN_SECTION.test(w)))];
}
