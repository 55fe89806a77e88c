/** A crate version as numbers; pre-release and build parts are dropped. */
function parts(version: string): [number, number, number] | null {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version.trim());
  if (!match) return null;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

/** Negative, zero or positive as `a` is older than, the same as or newer than `b`. */
export function compareCrateVersions(a: string, b: string): number {
  const x = parts(a) ?? [0, 0, 0];
  const y = parts(b) ?? [0, 0, 0];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** Whether `version` satisfies one comparator (`^1.2`, `~1.2.3`, `=1.0.7`, `>=0.4, <0.5`, `1.*`). */
function satisfiesOne(comparator: string, version: string): boolean {
  const match = /^(\^|~|=|>=|<=|>|<)?\s*v?([\d*xX]+(?:\.[\d*xX]+)?(?:\.[\d*xX]+)?)/.exec(comparator.trim());
  if (!match?.[2]) return comparator.trim() === '*' || comparator.trim() === '';
  const op = match[1] ?? '^';
  const given = match[2].split('.').filter((p) => !/^[*xX]$/.test(p));
  const want = parts(given.join('.') || '0');
  const have = parts(version);
  if (!want || !have) return false;
  const cmp = compareCrateVersions(version, given.join('.') || '0');
  // a wildcard or missing part leaves that part and the ones after it free
  const fixed = given.length;
  const samePrefix = (n: number) => have.slice(0, n).every((p, i) => p === want[i]);
  switch (op) {
    case '=':
      return samePrefix(fixed);
    case '>':
      return fixed === 3 ? cmp > 0 : !samePrefix(fixed) && cmp > 0;
    case '>=':
      return cmp >= 0;
    case '<':
      return cmp < 0;
    case '<=':
      return fixed === 3 ? cmp <= 0 : cmp < 0 || samePrefix(fixed);
    case '~':
      return cmp >= 0 && samePrefix(Math.min(fixed, 2) || 1);
    default: {
      // caret: the leftmost non-zero part may not change
      if (cmp < 0) return false;
      const firstNonZero = want.slice(0, fixed).findIndex((p) => p !== 0);
      const keep = firstNonZero === -1 ? fixed : firstNonZero + 1;
      return samePrefix(keep);
    }
  }
}

/** Whether a crate version satisfies a Cargo requirement (comma-separated comparators, all must hold). */
export function satisfiesCrateRequirement(requirement: string, version: string): boolean {
  return requirement.split(',').every((c) => satisfiesOne(c, version));
}
