import { SourceError } from '../SourceError.ts';

/** What go.sum says about one module version: its zip's hash and its go.mod's, as far as listed. */
export interface GoSumEntry {
  module: string;
  version: string;
  /** `h1:` of the module zip; absent when only the go.mod is in the graph (pruned, not built). */
  zipHash?: string;
  /** `h1:` of the module's go.mod. */
  modHash?: string;
}

const LINE = /^(\S+) (v\S+?)(\/go\.mod)? (h1:[A-Za-z0-9+/]{43}=)$/;

/**
 * go.sum's lines, one entry per module version, in the file's order. Only `h1:` hashes are
 * known (the only kind Go writes); another kind, or a line that is not `module version hash`,
 * is refused rather than skipped: a dependency must never go unchecked. Two different hashes
 * for one file are refused too.
 */
export function parseGoSum(text: string, file = 'go.sum'): GoSumEntry[] {
  const byKey = new Map<string, GoSumEntry>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const match = LINE.exec(line);
    if (!match)
      throw new SourceError(
        'invalid',
        `${file}:${i + 1}: not a go.sum line: ${JSON.stringify(line.slice(0, 200))}`,
      );
    const [, module, version, isMod, hash] = match as unknown as [
      string,
      string,
      string,
      string | undefined,
      string,
    ];
    const key = `${module} ${version}`;
    const entry = byKey.get(key) ?? { module, version };
    const field = isMod ? 'modHash' : 'zipHash';
    if (entry[field] && entry[field] !== hash)
      throw new SourceError('invalid', `${file}:${i + 1}: two hashes for ${key}${isMod ? '/go.mod' : ''}`);
    entry[field] = hash;
    byKey.set(key, entry);
  });
  return [...byKey.values()];
}
