import type { Dependency } from '../../analysis/index.ts';
import { DEBIAN_CARGO_REGISTRY } from '../../analysis/index.ts';
import { scriptedOf } from '../graph/nodes/scriptedAnalysis.ts';
import type { PortState } from '../state/PortState.ts';
import { debianCargoRegistry, SET_ASIDE_SUFFIX } from '../steps/debianCargoRegistry.ts';
import { table } from './markdown.ts';
import { renderFetchedDependencies } from './renderFetchedDependencies.ts';

const SCOPE: Record<string, string> = {
  normal: '',
  build: ' (build)',
  dev: ' (dev)',
  workspace: ' (workspace)',
  lock: ' (lock only)',
};

/**
 * report.md's crate section: which path supplied each dependency (Debian's packaged crates, or
 * nothing), what Cargo.toml asked for, what Cargo.lock pinned and what Debian has, and what was
 * done with the lock. Empty for a port without crates.
 */
export function renderCrateDependencies(state: PortState): string[] {
  const crates = (scriptedOf(state)?.dependencies ?? []).filter((d) => d.kind === 'crate');
  if (state.plan?.buildSystem === 'cargo' && state.fetchedDependencies?.kind === 'cargo')
    return renderFetchedDependencies(state.fetchedDependencies);
  if (crates.length === 0 || state.plan?.buildSystem !== 'cargo') return [];
  const registry = debianCargoRegistry(crates);
  const used = state.plan.phases.some((p) => p.commands.some((c) => c.includes(DEBIAN_CARGO_REGISTRY)));
  const out = ['', '## Crates', ''];
  out.push(
    used
      ? `Built offline from Debian's packaged crates: crates.io is replaced by the directory registry \`${DEBIAN_CARGO_REGISTRY}\` the \`librust-*-dev\` packages fill (\`$CARGO_HOME/config.toml\` in the sandbox, as Debian's dh-cargo does).`
      : 'No crate resolved to a Debian package: the build had nothing but the tree itself.',
  );
  const lock = registry?.lock;
  if (used && lock) {
    out.push('');
    out.push(
      lock.kept
        ? `\`${lock.file}\` kept: Debian packages every version it pins (those packages were installed).`
        : `\`${lock.file}\` moved aside (\`${lock.file}${SET_ASIDE_SUFFIX}\`): Debian does not package ${lock.notPackaged.length} of the versions it pins (${lock.notPackaged.slice(0, 8).join(', ')}${lock.notPackaged.length > 8 ? ', …' : ''}); cargo resolved against Debian's versions instead.`,
    );
  }
  // the crates Cargo.toml names, then the lock's transitive ones where Debian differs
  const differs = (d: Dependency) =>
    d.crate?.locked !== undefined && d.crate.debianVersion !== d.crate.locked;
  const rows = crates.filter((d) => d.crate?.scope !== 'lock' || differs(d));
  out.push('');
  out.push(
    table(
      ['crate', 'Cargo.toml asks', 'Cargo.lock pins', 'Debian package', 'Debian version', 'supplied by'],
      rows
        .slice(0, 60)
        .map((d) => [
          `${d.name}${SCOPE[d.crate?.scope ?? 'normal'] ?? ''}`,
          d.crate?.scope === 'lock' ? '' : d.crate?.requirement,
          d.crate?.locked ? `${d.crate.locked}${differs(d) ? ' (differs)' : ''}` : '',
          d.debianPackages[0] ?? '',
          d.crate?.debianVersion
            ? `${d.crate.debianVersion}${d.crate.satisfies ? '' : ' (does not satisfy)'}`
            : '',
          d.debianPackages.length ? "Debian's registry" : 'nothing (not packaged)',
        ]),
    ),
  );
  if (rows.length > 60) out.push(`\n… and ${rows.length - 60} more (state.json has all).`);
  return out;
}
