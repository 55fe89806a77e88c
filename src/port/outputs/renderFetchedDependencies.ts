import type { FetchedDependencies } from '../../sources/index.ts';
import { table } from './markdown.ts';

const SHOWN = 200;

/**
 * The dependencies a port fetched from a module proxy or crate registry, for report.md and
 * recipe.md: each module or crate with its version, the hash it was checked against and what
 * supplied it (the proxy or registry now, or rvport's store, filled and checked by an earlier port).
 */
export function renderFetchedDependencies(fetched: FetchedDependencies, heading = '##'): string[] {
  const go = fetched.kind === 'go';
  const out = ['', `${heading} ${go ? 'Go modules' : 'Crates'}`, ''];
  out.push(
    go
      ? `Fetched host-side from the module proxy ${fetched.from}, every module go.sum lists, each zip and go.mod checked against go.sum's \`h1:\` hash before it was stored; built offline in module mode from a copy of the store (\`GOPROXY=file://\`, \`-mod=readonly\`: go checked go.sum again).`
      : `Fetched host-side from the crate registry ${fetched.from}, every registry crate Cargo.lock pins, each \`.crate\` checked against the lock's sha256 before it was unpacked; built offline (\`cargo --offline\`) with crates.io replaced by a directory registry copied from the store (cargo checked the lock's checksums again).`,
  );
  out.push('');
  const label = go ? 'module proxy' : 'crate registry';
  out.push(
    table(
      [go ? 'module' : 'crate', 'version', 'hash', 'supplied by'],
      fetched.items
        .slice(0, SHOWN)
        .map((d) => [
          d.name,
          `${d.version}${d.modOnly ? ' (go.mod only)' : ''}`,
          d.hash,
          d.suppliedBy === 'store'
            ? `rvport's store (checked again; first from ${d.from})`
            : `${label} ${d.from}`,
        ]),
    ),
  );
  if (fetched.items.length > SHOWN)
    out.push(`\n… and ${fetched.items.length - SHOWN} more (state.json has all).`);
  return out;
}
