import type { SystemApiDrift } from './locateSystemApi.ts';

/** One use in words: `AVCodecContext.channel_layout` (ff.c:3; gcc's nearest name: `ch_layout`). */
function useWords(d: SystemApiDrift): string {
  const name = d.use.of ? `${d.use.of}.${d.use.symbol}` : `${d.use.symbol}()`;
  const notes = [
    d.use.at,
    d.use.suggestion && `the header's nearest name: \`${d.use.suggestion}\``,
    d.guarded && 'the header keeps it only behind a condition this version leaves off',
  ].filter(Boolean);
  return `\`${name.replace('()()', '()')}\`${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

/**
 * The recommendation for a build that used a system library's API the sandbox's version no longer
 * has: each library by its package, version and header, the names used, the nearest names, and
 * what gets past it. `debianPatchesTried`: Debian's patches were applied and did not carry it.
 */
export function describeApiDrift(drifts: readonly SystemApiDrift[], debianPatchesTried: boolean): string {
  const byLibrary = new Map<string, SystemApiDrift[]>();
  for (const d of drifts) {
    const key = d.package ?? d.header;
    byLibrary.set(key, [...(byLibrary.get(key) ?? []), d]);
  }
  const parts = [...byLibrary.values()].map((group) => {
    const first = group[0] as SystemApiDrift;
    const library = first.package
      ? `${first.package}${first.version ? ` ${first.version}` : ''} (\`${first.header}\`)`
      : `\`${first.header}\``;
    return `${library} no longer has ${group.map(useWords).join(', ')}`;
  });
  return [
    `The source uses a library API that the sandbox's version (Debian trixie's) has removed or renamed: ${parts.join('; ')}.`,
    'The source was written for another version of that library.',
    debianPatchesTried
      ? "Debian's patches were applied and do not carry the change:"
      : "Debian's packaging of the package often carries the patch that moves it to the new API;",
    'port a release made for this version of the library, apply the upstream change that moves to the new API, or patch the uses (the nearest names are where to look first), then run the port again.',
  ].join(' ');
}
