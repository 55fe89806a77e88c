import { shellQuote } from '../process/shellQuote.ts';
import { withPrepareCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * cargo, offline from Debian's crate registry, cannot select a version a manifest asks for:
 *
 *     error: failed to select a version for the requirement `hex-literal = "^0.3"`
 *     candidate versions found which didn't match: 0.4.1
 *     location searched: directory source `/usr/share/cargo/registry` (…)
 *     required by package `aes v0.8.4 (/build/src)`
 *
 * Debian packages one version of most crates, and cargo resolves every dependency table (the
 * dev-dependencies of the tests too) before it builds anything. Debian's own packaging answers
 * this with a "relax dependency" patch to the manifest; this does the same for the manifest of
 * the package being built (never a registry crate's): the requirement becomes the version Debian
 * has. Where that version's API differs, the compiler says so next.
 */
const REQUIREMENT = /failed to select a version for the requirement `([A-Za-z0-9_-]+) = "([^"`]+)"`/;
const CANDIDATES = /candidate versions found which didn't match: ([0-9][0-9A-Za-z.+, -]*)/;
const DIRECTORY_SOURCE = /location searched: directory source `/;
const REQUIRED_BY = /required by package `[A-Za-z0-9_-]+ v[^ `]+ \((\/[^)`]*)\)`/;
const VERSION = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/;

/** The highest of cargo's candidate versions (`0.4.1, 0.5.0`), or null. */
export function highestCandidate(list: string): string | null {
  const versions = list
    .split(',')
    .map((v) => v.trim())
    .filter((v) => VERSION.test(v));
  const key = (v: string) => (v.split(/[-+]/)[0] ?? '').split('.').map(Number);
  versions.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  });
  return versions.at(-1) ?? null;
}

/**
 * A sed script that sets the version requirement of crate `name` in a Cargo.toml, in each form
 * cargo writes it: `name = "…"`, `name = { version = "…", … }` and a `[….dependencies.name]` table.
 */
export function relaxRequirementScript(name: string, version: string): string {
  const n = name.replace(/-/g, '[-_]');
  return [
    `/^\\[([^]]*\\.)?(dev-|build-)?dependencies\\.${n}\\]/,/^\\[/ s/^(version[[:space:]]*=[[:space:]]*)"[^"]*"/\\1"${version}"/`,
    `s/^(${n}[[:space:]]*=[[:space:]]*)"[^"]*"/\\1"${version}"/`,
    `s/^(${n}[[:space:]]*=[[:space:]]*\\{[^}]*version[[:space:]]*=[[:space:]]*)"[^"]*"/\\1"${version}"/`,
  ].join('\n');
}

export const crateVersionFromDebian: RecoveryHeuristic = {
  name: 'crate-version-from-debian',
  description:
    "ask for the version of a crate Debian's registry has (a relaxed dependency, as Debian patches it)",
  match(ctx) {
    const out = ctx.failure.output;
    const requirement = REQUIREMENT.exec(out);
    const candidates = CANDIDATES.exec(out);
    const by = REQUIRED_BY.exec(out);
    if (!requirement || !candidates || !by || !DIRECTORY_SOURCE.test(out)) return null;
    const version = highestCandidate(candidates[1] ?? '');
    const dir = by[1] ?? '';
    // only the manifest of the package being built: a registry crate's is Debian's own
    const root = ctx.srcDir.replace(/\/+$/, '');
    if (!version || (dir !== root && !dir.startsWith(`${root}/`)) || dir.includes('/../')) return null;
    const name = requirement[1] ?? '';
    return {
      key: `${name}@${version}`,
      reason: `${name} "${requirement[2]}" is not in Debian's crate registry, which has ${version}`,
    };
  },
  async apply(ctx, match) {
    const [name = '', version = ''] = match.key.split('@');
    const by = REQUIRED_BY.exec(ctx.failure.output)?.[1] ?? ctx.srcDir;
    const rel = by.slice(ctx.srcDir.replace(/\/+$/, '').length).replace(/^\/+/, '');
    const manifest = rel ? `"$RVPORT_SRC"/${shellQuote(rel)}/Cargo.toml` : '"$RVPORT_SRC"/Cargo.toml';
    const command = `sed -i -E ${shellQuote(relaxRequirementScript(name, version))} ${manifest}`;
    return {
      applied: true,
      description: `asked for ${name} ${version}, the version Debian packages, in ${rel ? `${rel}/` : ''}Cargo.toml`,
      commands: [command],
      plan: withPrepareCommands(ctx.plan, [command]),
    };
  },
};
