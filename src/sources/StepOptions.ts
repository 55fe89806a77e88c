import type { FetchRules } from './sourceOrigin.ts';

/** What every step of acquiring a source takes: how it is stopped, where it logs, what it may fetch. */
export interface StepOptions {
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Who chose the source and what its fetches may reach (default: the command line, public addresses). */
  fetch?: FetchRules;
}
