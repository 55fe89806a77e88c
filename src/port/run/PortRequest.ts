import type { SandboxMode, UserlandEvidence, UserlandProofTable } from '../../sandbox/index.ts';
import type { SourceOrigin } from '../../sources/index.ts';
import type { RequestedMode } from './chooseSandboxMode.ts';

/** What one port is asked to do: the options of `rvport port` and of the callers that port. */
export interface PortRequest {
  source: string;
  /** Who chose `source` (default `command-line`; a queue worker's ports say `queue`). */
  sourceOrigin?: SourceOrigin;
  /** `--allow-private-addresses`: the source's fetches may reach loopback, LAN and reserved addresses. */
  allowPrivateAddresses?: boolean;
  maxAttempts: number;
  force: boolean;
  optimize: boolean;
  package: boolean;
  restart: boolean;
  /** `auto`: the fastest mode proven identical for the package (chooseSandboxMode). */
  mode: RequestedMode;
  out: string;
  offline: boolean;
  /** The LLM cost cap; the configuration's (default $1.00) when absent. */
  costCapUsd?: number;
  keepSandbox: boolean;
  suite?: string;
  mirror?: string;
  commandTimeoutMs?: number;
  testTimeoutMs?: number;
  /** False: the package's tests are not run (default true; the userland proof's timing-only runs). */
  runTests?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Default: the committed table (src/sandbox/proof/userlandProofs.json). */
  proofs?: UserlandProofTable;
  /** Added to every sandbox command's environment (proof runs pin SOURCE_DATE_EPOCH). */
  sandboxEnv?: Record<string, string>;
  /** A Go module proxy to fetch go.sum's modules from (default: RVPORT_GOPROXY; none: Debian's). */
  goProxy?: string;
  /** A crate registry's sparse index for Cargo.lock's crates (default: RVPORT_CARGO_REGISTRY). */
  cargoRegistry?: string;
  /** Differential tests against x86_64 after finish (default DEFAULT_DIFFERENTIAL). */
  differential?: boolean;
  /** Replay build.sh as the last step; absent: when the build took under 10 minutes. */
  replay?: boolean;
  /** Build on a remote riscv64 machine: `ssh://user@host[:port]` or a saved target's name. */
  target?: string;
  /**
   * `auto` without a proof: whether an autotools or plain-Make build may take native-userland
   * mode on its own evidence (default true), and the share of other invocations it checks.
   */
  perBuildEvidence?: boolean;
  evidenceSamplePerMille?: number;
  /**
   * Set on the port that redoes one in another mode (modeRedo.ts): a native-userland build its
   * evidence refused, or a build that lacked a compiler front end. `asked`: the user's mode.
   */
  redoOf?: {
    mode: SandboxMode;
    reason: string;
    asked: RequestedMode;
    evidence?: UserlandEvidence;
    /** Compiler packages the redone port's plan installs. */
    compilers?: string[];
  };
}
