import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fromRegistry, parseCargoLock } from '../../analysis/index.ts';
import { SourceError } from '../SourceError.ts';
import type { FetchedDependencies } from './FetchedDependency.ts';
import { fetchCrates } from './fetchCrates.ts';
import { fetchGoModules } from './fetchGoModules.ts';
import { checkServiceUrl } from './fetchLimited.ts';
import { parseGoSum } from './parseGoSum.ts';

/** Where a port's dependencies come from when they come from the network, not from Debian. */
export interface DependencySources {
  /** A Go module proxy (GOPROXY protocol). */
  goProxy?: string;
  /** A cargo registry's sparse index (where its config.json is), standing in for crates.io. */
  cargoRegistry?: string;
}

/** The store of fetched dependencies under RVPORT_HOME, shared by every port. */
export function dependencyStore(home: string, kind: 'go' | 'cargo'): string {
  return join(home, 'deps', kind);
}

/**
 * A Go module's or a crate's dependencies, fetched host-side as part of acquiring the source
 * when a proxy or registry is configured: Go's from go.sum (every module it lists), cargo's
 * from Cargo.lock (every registry package, by its checksum). Null when nothing is configured
 * for this build system, or it has nothing to fetch (then the Debian path stands). A Cargo.toml
 * with dependencies but no Cargo.lock, or a go.mod with requirements but no go.sum, cannot be
 * checked and is refused.
 */
export async function acquireDependencies(
  tree: string,
  build: { system: string; dir: string },
  sources: DependencySources,
  options: { home: string; signal?: AbortSignal; log?: (line: string) => void },
): Promise<FetchedDependencies | null> {
  const dir = join(tree, build.dir);
  if (build.system === 'go' && sources.goProxy) {
    const proxy = checkServiceUrl(sources.goProxy, 'the Go module proxy');
    const goMod = await readFile(join(dir, 'go.mod'), 'utf8').catch(() => '');
    if (!/^\s*require\b/m.test(goMod)) return null;
    const sum = join(dir, 'go.sum');
    if (!existsSync(sum))
      throw new SourceError(
        'invalid',
        `${join(build.dir, 'go.mod')} has requirements but no go.sum: they cannot be checked`,
      );
    const entries = parseGoSum(await readFile(sum, 'utf8'), join(build.dir, 'go.sum'));
    if (entries.length === 0) return null;
    return fetchGoModules(entries, { proxy, store: dependencyStore(options.home, 'go'), ...rest(options) });
  }
  if (build.system === 'cargo' && sources.cargoRegistry) {
    const registry = checkServiceUrl(sources.cargoRegistry, 'the crate registry');
    const lockPath = [join(dir, 'Cargo.lock'), join(tree, 'Cargo.lock')].find((p) => existsSync(p));
    if (!lockPath) {
      const manifest = await readFile(join(dir, 'Cargo.toml'), 'utf8').catch(() => '');
      if (/^\[(build-|dev-)?dependencies\]\s*\n\s*[A-Za-z0-9_-]/m.test(manifest))
        throw new SourceError(
          'invalid',
          `${join(build.dir, 'Cargo.toml')} has dependencies but the tree has no Cargo.lock: the port needs one to check the crates it fetches`,
        );
      return null;
    }
    const locked = parseCargoLock(await readFile(lockPath, 'utf8')).filter(fromRegistry);
    if (locked.length === 0) return null;
    return fetchCrates(locked, { registry, store: dependencyStore(options.home, 'cargo'), ...rest(options) });
  }
  return null;
}

function rest(options: { signal?: AbortSignal; log?: (line: string) => void }) {
  return {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.log ? { log: options.log } : {}),
  };
}
