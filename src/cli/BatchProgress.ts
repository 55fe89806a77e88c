import type { BatchEvent } from '../batch/BatchEvent.ts';
import { displayName } from '../batch/summarizeBatch.ts';

/**
 * A batch's live progress on stderr: a line per finished port (verdict, time) and, on a terminal,
 * a status line kept up to date: running ports with their names, done, failed, waiting.
 * Elsewhere plain lines only, one per start and end, so logs stay readable.
 */
export class BatchProgress {
  private readonly running = new Map<string, { name: string; since: number }>();
  private done = 0;
  private failed = 0;
  private total = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly interactive = Boolean(stream.isTTY),
  ) {
    if (this.interactive) this.timer = setInterval(() => this.draw(), 1000).unref();
  }

  readonly handle = (event: BatchEvent): void => {
    switch (event.type) {
      case 'plan':
        this.total = event.entries;
        this.print(
          `batch: ${event.entries} entries, ${event.skipped} finished in an earlier run, ${event.pending} to do`,
        );
        break;
      case 'skipped':
        if (event.result.verdict === 'verified') this.done += 1;
        else this.failed += 1;
        break;
      case 'queued':
        break;
      case 'started':
        this.running.set(event.entry.key, { name: displayName(event.entry), since: Date.now() });
        this.print(
          `  started  ${displayName(event.entry)}${event.where === 'local' ? '' : ` on ${event.where}`}`,
        );
        break;
      case 'finished': {
        this.running.delete(event.entry.key);
        const ok = event.result.verdict === 'verified';
        if (ok) this.done += 1;
        else this.failed += 1;
        const time =
          event.result.verdict === 'invalid' ? '' : ` in ${(event.result.wallMs / 1000).toFixed(1)} s`;
        const why = ok ? '' : `: ${event.result.message.split('\n')[0]?.slice(0, 160)}`;
        this.print(
          `  ${ok ? 'done    ' : 'failed  '} ${displayName(event.entry)} (${event.result.verdict}${time})${why}   [${this.done + this.failed}/${this.total}]`,
        );
        break;
      }
      case 'interrupted':
        this.running.delete(event.entry.key);
        this.print(`  stopped  ${displayName(event.entry)} (resumes on the next run)`);
        break;
    }
  };

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.clearLine();
  }

  /** The status line's text: counts and the names of the running ports. */
  status(): string {
    const now = Date.now();
    const names = [...this.running.values()]
      .map((r) => `${r.name} ${Math.round((now - r.since) / 1000)}s`)
      .join(', ');
    const waiting = this.total - this.done - this.failed - this.running.size;
    return `running ${this.running.size}${names ? ` (${names})` : ''} | done ${this.done} | failed ${this.failed} | waiting ${waiting}`;
  }

  private print(line: string): void {
    this.clearLine();
    this.stream.write(`${line}\n`);
    if (this.interactive) this.draw();
  }

  private draw(): void {
    const width = this.stream.columns || 100;
    this.stream.write(`\r\x1b[2K${this.status().slice(0, width - 1)}`);
  }

  private clearLine(): void {
    if (this.interactive) this.stream.write('\r\x1b[2K');
  }
}
