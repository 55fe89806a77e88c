/**
 * One dependency a port took from a module proxy or a crate registry (or from rvport's store,
 * where an earlier port had put it after checking it): what the recipe, the cache entry and the
 * report list.
 */
export interface FetchedDependency {
  kind: 'go-module' | 'crate';
  name: string;
  version: string;
  /** The hash it was checked against: go.sum's `h1:` (zip, else go.mod), Cargo.lock's sha256. */
  hash: string;
  /** Only the go.mod was needed (a module in the graph whose packages the build does not use). */
  modOnly?: boolean;
  /** Where it came from: downloaded now, or already in the store from an earlier port. */
  suppliedBy: 'proxy' | 'registry' | 'store';
  /** The proxy or registry the port was configured with. */
  from: string;
}

/** The dependencies of a port fetched host-side, and where their subset of the store is. */
export interface FetchedDependencies {
  kind: 'go' | 'cargo';
  /** The module proxy or registry URL. */
  from: string;
  /** Paths relative to the store root (`RVPORT_HOME/deps/go` or `…/cargo`) the build needs. */
  paths: string[];
  items: FetchedDependency[];
}
