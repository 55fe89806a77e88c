import type { ContentsLookup, LanguageUse } from '../../analysis/index.ts';
import type { DebianSourceIndex } from '../../debian/DebianSourceIndex.ts';
import type { RecoveryHeuristic } from '../../heuristics/index.ts';
import type { LlmClient } from '../../llm/index.ts';
import type { Sandbox, UserlandEvidence } from '../../sandbox/index.ts';
import type { AskedSource, DependencySources } from '../../sources/index.ts';
import type { ModeChoice } from './chooseSandboxMode.ts';
import type { ProgressEvent } from './ProgressEvent.ts';

/** Gives the port one sandbox instance for the life of the process, and takes it back. */
export interface SandboxProvider {
  /** The instance of this process (created on first use). */
  get(): Promise<Sandbox>;
  /** Throws the instance away; the next `get` makes a fresh one. */
  discard(): Promise<void>;
  readonly imageId: string;
  readonly suite: string;
}

/**
 * Everything the port nodes use besides the state: the sandbox, Debian's data, the heuristics,
 * where outputs go, and the seams where the LLM layer plugs in (absent: deterministic fallback).
 */
/** What the mode choice takes from the analysis (init knows it once the source is acquired). */
export interface ModeAnalysis {
  /**
   * Compiled languages beyond C and C++ and whether the build names them: the accelerated cross
   * gcc has no front end for them.
   */
  languages?: readonly LanguageUse[];
  /** Whether a build may stand on its own evidence depends on its build system. */
  buildSystem?: string;
}

export interface PortServices {
  home: string;
  /** OUT/NAME: where the port's files go. */
  outDir: string;
  /** Where sources are acquired (RVPORT_HOME/sources). */
  sourcesDir: string;
  /**
   * The SOURCE the port was asked for and its fetch rules (absent: the command line, public
   * addresses only). A state naming another SOURCE than `source` acquires it as origin `state`.
   */
  sourceFetch?: AskedSource;
  buildLog: string;
  sandbox: SandboxProvider;
  /** The riscv64 Contents index, or null when it cannot be had (then the alias table only). */
  contents(): Promise<ContentsLookup | null>;
  heuristics: readonly RecoveryHeuristic[];
  /** Time limit of one build command. */
  commandTimeoutMs: number;
  /** Time limit of the package's test run. */
  testTimeoutMs: number;
  /** False: finish does not run the package's tests (timing-only runs of the userland proof). */
  runTests?: boolean;
  progress(event: ProgressEvent): void;
  /** The LLM client of the port; offline (every call answers `offline`) without a provider or with --offline. */
  llm: LlmClient;
  /**
   * Decides the sandbox mode for the acquired source (a userland proof holds for one source tree)
   * and points the sandbox provider at it; init calls it before any sandbox is made. Absent: the
   * mode of the options stands. `languages`: the analysis's compiled languages beyond C and C++.
   */
  chooseMode?(sourceTree: string, analysis?: ModeAnalysis): ModeChoice;
  /**
   * The archive's Sources index, loaded once: Debian's Build-Depends for a source without its
   * debian.tar (see debianSourceHint). Absent or null: no hints.
   */
  debianSources?(): Promise<DebianSourceIndex | null>;
  /**
   * Called once the build system is known: a Cargo build in accelerated mode may use the x86_64
   * cargo and rustc (port/run/chooseRustLayer.ts). Answers the sentence for the report, or null.
   */
  chooseRust?(buildSystem: string, details?: Record<string, unknown>): string | null;
  /**
   * A native-userland build on per-build evidence: the evidence of the finished build in
   * `sandbox` (finish calls it before the cache entry is written; a refused build gets none).
   */
  collectModeEvidence?(sandbox: Sandbox): Promise<UserlandEvidence | undefined>;
  /**
   * The same for a build that failed: the evidence of the instance the last attempt ran in, when
   * the port built in native-userland mode on per-build evidence and an instance ran (escalate
   * calls it, so that a failure the evidence clears of the fast userland is not built again).
   */
  collectFailedModeEvidence?(): Promise<UserlandEvidence | undefined>;
  /**
   * The package names apt in the sandbox can install (the rootfs image's package lists), loaded
   * once; null when unknown. Absent: LLM-proposed package names are checked by form only.
   */
  installable?(): Promise<ReadonlySet<string> | null>;
  /** A Go module proxy and a crate registry to fetch dependencies from (absent: Debian's packages). */
  dependencySources?: DependencySources;
  /** Debian mirror and suite for source acquisition. */
  mirror?: string;
  suite: string;
}

/** The installable package names, or null when the services cannot say. */
export async function installableOf(svc: PortServices): Promise<ReadonlySet<string> | null> {
  return svc.installable ? svc.installable() : null;
}

export function portServices(services: Readonly<Record<string, unknown>>): PortServices {
  const port = services.port as PortServices | undefined;
  if (!port) throw new Error('the port graph runs only with its services (use runPort)');
  return port;
}
