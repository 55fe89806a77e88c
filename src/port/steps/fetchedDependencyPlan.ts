import type { Dependency } from '../../analysis/index.ts';
import { goBuildCommands } from '../../analysis/index.ts';
import { SANDBOX_WORKSPACE } from '../../sandbox/index.ts';
import type { FetchedDependencies } from '../../sources/index.ts';
import { CRATES_FOLDER } from '../../sources/index.ts';
import type { PlanPhase } from '../state/PortState.ts';
import { cargoSourceReplacement } from './cargoSourceReplacement.ts';

/** Where a port's fetched dependencies are inside the sandbox (copied in with the source, read only by the build). */
export const SANDBOX_DEPS = `${SANDBOX_WORKSPACE}/deps`;

/**
 * The environment of a Go build from fetched modules: the store's `cache/download` as a
 * file:// module proxy (the sandbox has no network; go reads nothing else), go.sum checked by
 * go itself again (`GOSUMDB=off` only stops it asking the checksum database), and go.mod and
 * go.sum left as they are (`-mod=readonly`: a module go.sum does not list is an error, never a
 * hash added unchecked).
 */
export const FETCHED_GO_ENV = [
  'GOTOOLCHAIN=local',
  "GOFLAGS='-buildvcs=false -mod=readonly -modcacherw'",
  `GOPROXY=file://${SANDBOX_DEPS}/cache/download`,
  'GOSUMDB=off',
  'GONOSUMDB=',
  'GOPRIVATE=',
].join(' ');

/** A Go module's phases from the modules fetched into the store (module mode, offline). */
export function fetchedGoPhases(): PlanPhase[] {
  const go = (command: string) => `${FETCHED_GO_ENV} ${command}`;
  return [
    {
      name: 'build',
      commands: goBuildCommands(go, 'build'),
    },
    { name: 'test', commands: [go('go test -vet=off ./...')], optional: true },
  ];
}

/** The source replacement's name in `$CARGO_HOME/config.toml`. */
const SOURCE_NAME = 'rvport-fetched';

/**
 * The prepare commands of a cargo build from the crates fetched into the store: crates.io
 * replaced by the directory registry copied in (cargo checks each crate's files and the lock's
 * checksum against its `.cargo-checksum.json`), written to `$CARGO_HOME/config.toml` inside the
 * sandbox, with cargo offline. The lock stays: it is what the crates were checked against.
 */
export function fetchedCargoPrepare(): string[] {
  return [cargoSourceReplacement(SOURCE_NAME, `${SANDBOX_DEPS}/${CRATES_FOLDER}`, true)];
}

/** The Debian packages the dependencies resolved to, which a fetched build does not need. */
export function packagesFetchedInstead(
  fetched: FetchedDependencies,
  dependencies: readonly Dependency[],
): Set<string> {
  const kind = fetched.kind === 'go' ? 'go-module' : 'crate';
  return new Set(dependencies.filter((d) => d.kind === kind).flatMap((d) => d.debianPackages));
}
