import type { Finding } from '../../analysis/index.ts';
import type { OptimizationReport } from '../../optimize/OptimizationReport.ts';
import type { BuildPlan, PlanPhase } from '../../plan/index.ts';
import type { TargetMode, UserlandEvidence } from '../../sandbox/index.ts';
import type { FetchedDependencies } from '../../sources/index.ts';
import { version } from '../../version.ts';
import type { SystemApiDrift } from '../diagnosis/locateSystemApi.ts';
import type { DifferentialRecord } from '../differential/DifferentialRecord.ts';
import type { TestCase } from '../testResults/TestCase.ts';
import type { BuildStatus, ErrorCategory, Severity } from './vocabulary.ts';

/** The format of a port's state; bumped when a field changes meaning. */
export type { BuildPlan, PlanPhase };

export const PORT_STATE_VERSION = 1;

export interface SourceInfo {
  /** The SOURCE as the user gave it. */
  spec: string;
  name: string;
  /** Where the working tree is on the host, once acquired. */
  dir?: string;
  url?: string;
  commit?: string;
  /** The git tree id of the acquired source (its content): what a userland proof is keyed by. */
  tree?: string;
  /**
   * What acquiring the source warned of (entries git refused, submodules without content, a
   * component it left out); Debian's packaging notes have their own section.
   */
  warnings?: string[];
}

export interface PortOptions {
  maxAttempts: number;
  costCapUsd: number;
  offline: boolean;
  /** `native`: built on a remote riscv64 machine (`--target`). */
  mode: TargetMode;
  /** Why this mode built the package (chooseSandboxMode). */
  modeReason?: string;
  /** What native-userland mode stood on: the proof table or the build's own evidence. */
  modeEvidence?: 'proof-table' | 'per-build';
  optimize: boolean;
  force: boolean;
  /** Differential tests against x86_64 after finish (older states lack it: off). */
  differential?: boolean;
  /** Replay build.sh as the last step: auto replays when the build was short (older states: auto). */
  replay?: 'on' | 'off' | 'auto';
  /**
   * Debian compiler packages the plan installs beyond what the analysis found (gobjc on a port
   * redone in emulated mode because the cross gcc of the first run lacked cc1obj).
   */
  compilers?: string[];
}

export interface ErrorRecord {
  at: string;
  node: string;
  phase?: string;
  command?: string;
  exitCode?: number;
  category: ErrorCategory;
  severity: Severity;
  /** The relevant part of the output (the tail, or the matched lines). */
  message: string;
  /** The line that decided the category, when a rule matched one. */
  evidence?: string;
  /** The first real error line of the failed command (compiler, linker, make, configure, …). */
  errorLine?: string;
  /** The message with volatile parts removed; equal signatures mean the same error. */
  signature: string;
  /**
   * How far the failed build got (phase rank × 1000 + command index; -1 for the package
   * install): a fix after which the build fails earlier made things worse and is rolled back.
   */
  progress?: number;
}

/** A command an LLM proposed that rvport refused to run, with the reason. */
export interface RefusedCommand {
  at: string;
  node: string;
  command: string;
  reason: string;
}

/**
 * The LLM fix the next build tries out: what the plan and patches were before it, so a build
 * that fails earlier than the one it fixed rolls it back.
 */
export interface FixUnderTrial {
  /** Index in fixAttempts. */
  fixIndex: number;
  /**
   * `progress` of the failure the fix answered; null when it had none (a verification failure),
   * and then the fix is never judged worse. (Not -Infinity: the state is JSON.)
   */
  baselineProgress: number | null;
  planBefore: BuildPlan;
  patchesBefore: { name: string; diff: string }[];
  /** The sandbox snapshot taken before the fix (valid only in the process that took it). */
  snapshot?: { id: string; createdAt: string };
}

export interface FixAttempt {
  at: string;
  attempt: number;
  source: 'heuristic' | 'llm';
  /** Heuristic name, or the fixer's summary. */
  name: string;
  description: string;
  commands?: string[];
  patch?: string;
  outcome: 'applied' | 'failed' | 'rolled-back';
}

/**
 * What a port of a `debian:` source took from Debian's packaging (debian/control and
 * debian/patches): the knowledge Debian's own build of the package uses.
 */
export interface DebianKnowledge {
  /** Build-Depends(-Arch) relations that apply to riscv64, alternatives in Debian's order. */
  buildDepends: string[][];
  /** Build-Depends installed before the build; they are in the plan's packages too. */
  installed: string[];
  /** Build-Depends not installed, and why (not in the sandbox's lists, broke the install, …). */
  leftOut: { name: string; reason: string }[];
  /** Debian's patches (series names) that applied: the first of the port's patches. */
  patchesApplied: string[];
  /** Debian's patches that were refused or did not apply to the upstream tree, and why. */
  patchesSkipped: { name: string; reason: string }[];
  /** What of the packaging could not be used, or why none of it was (older states lack it). */
  problems?: string[];
  /** Applied patches that change autotools inputs: the plan regenerates them (autoreconf). */
  regenerate?: { name: string; reason: string }[];
  /**
   * Set when no debian.tar was at hand: the Debian source package whose Build-Depends (from the
   * archive's Sources index) are used, and how the tree was matched to it.
   */
  hint?: { package: string; version: string; via: string };
  /** The import path Debian builds a Go package under (debian/control or the Sources index). */
  goImportPath?: string;
  /** The build steps debian/rules replaces or extends (`override_dh_auto_build`): its own build. */
  rulesSteps?: string[];
  /** The Go packages debian/rules keeps out of the build (`DH_GOLANG_EXCLUDES`): a GOPATH build drops them too. */
  goExcludes?: string[];
  /** The kept `debian/` folder on the host (data only: it is read confined, and run only in the sandbox). */
  packagingDir?: string;
}

/** What the analyst concluded, from the LLM or from the scripted analysis. */
export interface PackageAnalysis {
  buildSystem: string;
  confidence: number;
  dir: string;
  needsCustomPlan: boolean;
  llmGrounded: boolean;
  dependencies: string[];
  expectedArtifacts: string[];
  notes: string[];
}

/** An architecture hazard found by the scripted scan (analysis/hazards). */
export type ArchitectureFinding = Finding;

export interface LlmUsageTotals {
  /** HTTP exchanges (lines of llm-calls.jsonl). */
  calls: number;
  /** Input tokens read neither from nor into the prompt cache. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
}

/** A command the port ran in the sandbox, in order; the recipe is made from the ones that worked. */
export interface ExecutedCommand {
  phase: string;
  command: string;
  exitCode: number;
  durationMs: number;
  attempt: number;
  origin: 'plan' | 'heuristic' | 'fix';
}

/** A build output with its ELF facts and what it is for. */
export interface ArtifactRecord {
  path: string;
  machine: string | null;
  bits: number | null;
  endian: string | null;
  type: string;
  abi: string | null;
  interpreter: string | null;
  linkage: string | null;
  role: 'program' | 'shared-library' | 'static-library' | 'object' | 'test' | 'other';
  /** Lower is more important; 0 is the main artifact. */
  rank: number;
  /** SHA-256 (hex) and length of the bytes the verify node judged (absent in older states). */
  sha256?: string;
  size?: number;
}

/** An object in a build tree whose content is a file the source shipped: not counted as built. */
export interface ShippedObject {
  /** Where the build tree has it (`DESTDIR/` for the install tree). */
  path: string;
  /** The file of the original source with the same content. */
  from: string;
}

/**
 * What left the sandbox as OUT/NAME/artifacts, judged on the copies: the verdict describes these
 * bytes. An artifact that changed after the verify node is judged again on its copy, and
 * refused (not delivered, the port not verified) unless the copy is still riscv64.
 */
export interface DeliveryRecord {
  /** Artifacts copied out and judged riscv64 on the host copy. */
  delivered: string[];
  /** Of those, the ones whose bytes changed after the verify node, judged again on the copy. */
  reverified: string[];
  /** Artifacts not delivered, and why. */
  refused: { path: string; reason: string; changed: boolean }[];
  /** Apparent size of the copies together (holes counted), against `limitBytes`. */
  bytes: number;
  limitBytes: number;
}

/**
 * Whether build.sh alone, in a fresh sandbox instance from a fresh copy of the source, gave the
 * port's artifacts (`rvport replay`): `yes` with the same names and ELF facts, `no` and why.
 */
export interface ReplayRecord {
  /** skipped: the port did not replay as its last step (reason says why). */
  replayed: 'yes' | 'no' | 'skipped';
  reason: string;
  at: string;
  mode: TargetMode;
  durationMs: number;
  /** Artifacts compared, and how many of them have the same bytes as the port's copies. */
  compared: number;
  identical: number;
}

export interface AuditEvent {
  at: string;
  node: string;
  event: string;
  detail?: string;
}

/**
 * Everything a port knows, in one serialisable object: the engine's context for the port graph.
 * Nodes return partial updates of it; the engine checkpoints it after every node.
 */
export interface PortState {
  formatVersion: number;
  /** The rvport that started the port: a checkpoint of another one is not resumed. */
  rvportVersion?: string;
  source: SourceInfo;
  options: PortOptions;
  /** The scripted analysis (build systems, dependencies, findings), as produced by init. */
  scripted?: unknown;
  /**
   * A build in native-userland mode on its own evidence: what it showed (accepted or not). On a
   * port redone in accelerated mode, the evidence that sent it there.
   */
  userlandEvidence?: UserlandEvidence;
  /**
   * An escalated build's uses of a system library's API the sandbox's headers no longer have
   * (the escalate node looks them up), which escalation.md names.
   */
  apiDrift?: SystemApiDrift[];
  packageAnalysis: PackageAnalysis | null;
  plan: BuildPlan | null;
  /** A verified cache entry to build from (with --optimize). */
  cachedRecipe: unknown | null;
  buildStatus: BuildStatus;
  attemptCount: number;
  errors: ErrorRecord[];
  fixAttempts: FixAttempt[];
  /** Re-plan signatures already used (each sends the run back to the scout once). */
  replansUsed: string[];
  /** How often each heuristic key has fired (each is limited to once per key). */
  heuristicsUsed: Record<string, number>;
  findings: ArchitectureFinding[];
  /**
   * Go modules or crates fetched host-side from a configured proxy or registry and checked
   * against go.sum or Cargo.lock (absent: none configured, or nothing to fetch).
   */
  fetchedDependencies?: FetchedDependencies | null;
  /** Debian's packaging knowledge used by a port of a `debian:` source (absent otherwise). */
  debian?: DebianKnowledge | null;
  /** Source changes as git diffs, named as the patch files in patches/. */
  patches: { name: string; diff: string }[];
  executed: ExecutedCommand[];
  /** Commands proposed by the LLM and refused by the command guard. */
  refusedCommands: RefusedCommand[];
  /** The LLM fix being tried by the next build, or null. */
  fixUnderTrial: FixUnderTrial | null;
  /**
   * The sandbox instance that holds the last successful build. A port resumed in another
   * instance (the old one is gone) builds the final plan again before it reads the build tree.
   */
  builtIn?: string;
  artifacts: ArtifactRecord[];
  /** Objects of the build trees the source shipped (copied or not): never counted as built. */
  shippedInSource?: ShippedObject[];
  /** What finish copied out and how the copies were judged (absent before finish). */
  delivery?: DeliveryRecord;
  verification: { verdict: 'verified' | 'not_verified'; reason: string } | null;
  tests: {
    ran: boolean;
    passed: number;
    failed: number;
    exitCode: number | null;
    summary: string;
    /** When the test step's first command started (ISO 8601; absent when no test ran, and in older states). */
    startedAt?: string;
    /** Per test, as the harness reported it (older states lack it). */
    cases?: TestCase[];
    /** The test command stopped at the time limit (`--test-timeout`), when one was. */
    cutAt?: { command: string; limitSeconds: number };
  } | null;
  /** Programs started once under emulation after the build (`--version`, `--help`). */
  smokeTests: {
    program: string;
    command: string;
    exitCode: number;
    output: string;
    /** The program is not in this build's tree (an x86_64 build may name an object folder otherwise). */
    absent?: true;
    /** It gave no answer within the time limit (and was not started again with other flags). */
    timedOut?: true;
    /** A byte-identical copy of this program, run already: its result, not a run of this copy. */
    sameAs?: string;
  }[];
  /** Compiler warnings in the build log that point at riscv64 hazards (char signedness, …). */
  hazardWarnings: string[];
  /** LLM use of the port: exchanges, tokens as the provider reported them, dollars. */
  llm: LlmUsageTotals;
  timings: Record<string, number>;
  audit: AuditEvent[];
  optimizeRequested: boolean;
  escalationReason: string | null;
  /** recipe.md, written by finish. */
  recipe: string | null;
  /** The last `rvport replay` of this port's build.sh (absent: never replayed). */
  replay?: ReplayRecord;
  /** The differential tests against x86_64 (absent: the port did not reach them). */
  differential?: DifferentialRecord;
  /** What performance mode did (--optimize after a verified port); absent when it did not run. */
  optimization?: OptimizationReport;
}

export function createPortState(source: SourceInfo, options: PortOptions): PortState {
  return {
    formatVersion: PORT_STATE_VERSION,
    rvportVersion: version,
    source,
    options,
    packageAnalysis: null,
    plan: null,
    cachedRecipe: null,
    buildStatus: 'PENDING',
    attemptCount: 0,
    errors: [],
    fixAttempts: [],
    replansUsed: [],
    heuristicsUsed: {},
    findings: [],
    patches: [],
    executed: [],
    refusedCommands: [],
    fixUnderTrial: null,
    artifacts: [],
    verification: null,
    tests: null,
    smokeTests: [],
    hazardWarnings: [],
    llm: { calls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    timings: {},
    audit: [],
    optimizeRequested: options.optimize,
    escalationReason: null,
    recipe: null,
  };
}
