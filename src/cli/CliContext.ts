/** What a command needs from the process, kept small so commands are testable in-process. */
export interface CliContext {
  /** Set by a command's action; `main` returns it. */
  exitCode: number;
  /** Aborted on the first Ctrl+C (SIGINT) or SIGTERM. */
  signal: AbortSignal;
  out(text: string): void;
  err(text: string): void;
}
