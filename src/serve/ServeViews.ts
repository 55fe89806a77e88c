// The JSON the dashboard's server answers with, shared by the server (src/serve) and the browser
// code (web/): plain data, no imports, so both sides compile it on their own.

/** How a port ended, as a batch records it, or where it stands when it has not ended. */
export type PortVerdict =
  | 'verified'
  | 'not_verified'
  | 'escalated'
  | 'package_failed'
  | 'invalid'
  | 'crashed'
  | 'timed_out'
  /** A batch that runs now has started it and it has no result yet. */
  | 'running'
  /** No result and nothing runs it (an interrupted port, or a batch entry not started). */
  | 'unfinished';

export interface TestsView {
  ran: boolean;
  passed: number;
  failed: number;
}

/** One row of the ports table. */
export interface PortRow {
  /** Where the port's folder is under the output folder: `NAME` or `BATCH/NAME`. */
  key: string;
  name: string;
  /** The batch folder it belongs to (`.` for the output folder itself), or null. */
  batch: string | null;
  verdict: PortVerdict;
  /** Category of the last error the port recorded (it may have been repaired). */
  category: string | null;
  buildSystem: string | null;
  mode: string | null;
  wallMs: number | null;
  tests: TestsView | null;
  /** Differential tests against x86_64, in words (`3 fail only on riscv64`), or null: not run. */
  differential: string | null;
  /** The replay of build.sh, in words (`identical 4 of 4`, `skipped`), or null: none. */
  replay: string | null;
  finishedAt: string | null;
}

export interface BatchRef {
  key: string;
  running: boolean;
}

export interface OverviewView {
  /** The output folder, as the server was started on it. */
  out: string;
  ports: PortRow[];
  batches: BatchRef[];
  /** What could not be read (a corrupt state.json, an unreadable folder), one line each. */
  problems: string[];
}

/** A file of a port's folder that can be downloaded. */
export interface FileView {
  /** Relative to the port's folder, `/`-separated. */
  path: string;
  size: number;
  /** From state.json when the port recorded it (artifacts), else null. */
  sha256: string | null;
  /** The artifact's ELF facts in words (`riscv64 64-bit shared-library`), null for other files. */
  facts: string | null;
}

export interface DocumentView {
  name: string;
  /** The Markdown text, or null when the file is not there or could not be read (see note). */
  markdown: string | null;
  note: string | null;
}

export interface TimeSlice {
  name: string;
  ms: number;
}

export interface LogRef {
  file: string;
  bytes: number;
}

export interface LastErrorView {
  category: string;
  severity: string;
  phase: string | null;
  command: string | null;
  errorLine: string | null;
  message: string;
}

export interface PortDetailView {
  row: PortRow;
  source: { spec: string; url: string | null; commit: string | null } | null;
  status: string | null;
  verification: string | null;
  escalationReason: string | null;
  lastError: LastErrorView | null;
  documents: DocumentView[];
  artifacts: FileView[];
  files: FileView[];
  /** Milliseconds per node of the port graph (state.json `timings`, the total left out). */
  nodeTimes: TimeSlice[];
  /** Milliseconds per build phase, summed over the commands the port ran. */
  phaseTimes: TimeSlice[];
  logs: LogRef[];
  problems: string[];
}

export interface LogPageView {
  file: string;
  /** 1-based. */
  page: number;
  pages: number;
  pageSize: number;
  /** 1-based number of the first line of `lines`. */
  firstLine: number;
  totalLines: number;
  lines: string[];
  /** 1-based line of the failing command's first error line (or its header), or null. */
  errorLine: number | null;
}

export interface BatchRowView {
  line: number | null;
  name: string;
  /** The port's key when its folder exists. */
  port: string | null;
  verdict: PortVerdict;
  category: string | null;
  buildSystem: string | null;
  wallMs: number | null;
  message: string | null;
}

export interface VerdictCounts {
  label: string;
  counts: Partial<Record<PortVerdict, number>>;
}

export interface BatchView {
  key: string;
  running: boolean;
  /** The process that holds batch.lock, when one does. */
  holder: number | null;
  entries: number;
  finished: number;
  verified: number;
  failed: number;
  inFlight: number;
  rows: BatchRowView[];
  byCategory: VerdictCounts[];
  byBuildSystem: VerdictCounts[];
  /** When results.jsonl last changed (ISO 8601), or null. */
  updatedAt: string | null;
}

export interface ErrorView {
  error: string;
  message: string;
}
