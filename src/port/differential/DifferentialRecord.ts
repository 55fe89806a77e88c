/** How one test or smoke run went on the two architectures. */
export type DifferentialOutcome =
  | 'passes on both'
  | 'fails on both'
  | 'fails only on riscv64'
  | 'fails only on x86_64';

export interface DifferentialRow {
  kind: 'test run' | 'test' | 'smoke';
  name: string;
  outcome: DifferentialOutcome;
  /** The riscv64 side's output of a failure there (the x86_64 side's for an x86_64-only failure). */
  output?: string;
}

/**
 * A compiler warning and the char-signedness scan pointing at the same line (or one of them
 * alone): the evidence beside a riscv64-only failure.
 */
export interface HazardEvidence {
  /** `file:line` as the build or the scan named it. */
  location: string;
  warning?: string;
  finding?: string;
}

/**
 * The differential tests of a port: the same plan built, tested and smoke-run for x86_64 (the
 * amd64 side of the same Debian release), held against the riscv64 run. Evidence beside the
 * verdict: riscv64-only failures never change it.
 */
export interface DifferentialRecord {
  ran: boolean;
  /** What was compared, or why nothing was. */
  reason: string;
  at: string;
  /** The x86_64 side, end to end (provisioning included when it happened). */
  durationMs: number;
  /** The x86_64 build alone, and its tests and smoke runs. */
  x86BuildMs?: number;
  x86TestMs?: number;
  /** Seconds spent provisioning the amd64 build root in this port (first use only). */
  provisionMs?: number;
  rows: DifferentialRow[];
  riscv64Only: number;
  x86Only: number;
  hazards: HazardEvidence[];
}
