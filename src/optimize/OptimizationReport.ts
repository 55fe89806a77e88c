/** What performance mode found: the probe, the workload, each tune with its gates and timings. */

export type WorkloadSource = 'benchmarks' | 'optimizer' | 'tests';

export interface Workload {
  source: WorkloadSource;
  /** Shell command lines run in the build folder, in order. */
  commands: string[];
  /** Run before every run of `commands` in a build tree and never timed (a harness's build). */
  setup?: string[];
  /** How the output of two builds is compared: byte for byte, with numbers masked, or test results. */
  compare: 'exact' | 'numbers-masked' | 'test-results';
  /** Why this workload (and what happened to the sources tried before it). */
  reason: string;
}

export interface TargetFacts {
  emulated: boolean;
  /** How emulation was seen (the probe's evidence), or why the target is taken as native. */
  emulationEvidence: string[];
  /** The ISA string a build may assume, and where it came from. */
  isa: string | null;
  extensions: string[];
  compiler: string | null;
  /** The richest `-march` the compiler accepts whose extensions the target executes. */
  march: string | null;
  /** Extensions `march` adds to rv64gc (what the ELF attributes of a march tune must show). */
  marchExtensions: string[];
  clang: string | null;
  notes: string[];
}

export interface GateResult {
  name: 'build' | 'artifacts' | 'tests' | 'workload';
  passed: boolean;
  detail: string;
}

export interface TimingComparison {
  runs: number;
  baselineMedianMs: number;
  tuneMedianMs: number;
  /** Median of the tune over median of the baseline: below 1 is faster. */
  ratio: number;
  /** Two-sided Mann–Whitney U p-value. */
  p: number;
  method: 'exact' | 'normal';
  /** The rank test says the tune is faster (p below the threshold, ratio below 1). */
  faster: boolean;
}

export interface TuneResult {
  name: string;
  description: string;
  /** The variables the tune sets (its recipe), as the build saw them. */
  env: Record<string, string>;
  /** PGO: the profile run between the two builds. */
  stages?: string[];
  status: 'gated' | 'failed' | 'not-built';
  /** Why not built, or the first failed gate. */
  reason?: string;
  gates: GateResult[];
  /** The first timing check; absent when the tune did not pass its gates. */
  timing?: TimingComparison;
  /** The separate second check of a tune that won the first. */
  confirmation?: TimingComparison;
  durationMs?: number;
}

export interface OptimizationReport {
  status: 'done' | 'skipped' | 'failed';
  /** Why skipped or failed. */
  reason?: string;
  target?: TargetFacts;
  workload?: Workload;
  baseline?: { env: Record<string, string>; tests: string; fingerprint: string };
  tunes: TuneResult[];
  /** The tune that won both checks, on a native target only. */
  winner: string | null;
  /** `no speed claim under emulation`, or how the winner (or no winner) was decided. */
  verdict: string;
  /** What stands in for time under emulation, or why nothing does. */
  costProxy: string;
  notes: string[];
  durationMs: number;
}

export const NO_SPEED_CLAIM = 'no speed claim under emulation';
