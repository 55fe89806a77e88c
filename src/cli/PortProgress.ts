import type { ProgressEvent } from '../port/index.ts';
import { terminalSafe } from './terminalSafe.ts';

/**
 * The port's progress on stderr. On a terminal: one status line kept up to date (node, phase,
 * elapsed time, the last line of the running command). Otherwise plain lines, one per node and
 * command, so logs stay readable. Commands and their output come from the repository: they are
 * written without their escape sequences (terminalSafe).
 */
export class PortProgress {
  private node = '';
  private phase = '';
  private lastLine = '';
  private readonly started = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private drawn = false;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly interactive = Boolean(stream.isTTY),
  ) {
    if (this.interactive) this.timer = setInterval(() => this.draw(), 1000).unref();
  }

  readonly handle = (event: ProgressEvent): void => {
    switch (event.type) {
      case 'node':
        this.node = event.node;
        this.phase = '';
        this.lastLine = '';
        this.print(`» ${event.node}`);
        break;
      case 'phase':
        this.phase = event.phase;
        this.lastLine = event.command;
        this.print(`  [${event.phase}] $ ${event.command}`);
        break;
      case 'output':
        this.lastLine = event.line;
        if (this.interactive) this.draw();
        break;
      case 'note':
        this.print(`  ${event.message}`);
        break;
    }
  };

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.clearLine();
  }

  private print(line: string): void {
    this.clearLine();
    this.stream.write(`${terminalSafe(line)}\n`);
    if (this.interactive) this.draw();
  }

  private draw(): void {
    const width = this.stream.columns || 100;
    const elapsed = Math.round((Date.now() - this.started) / 1000);
    const head = `${String(Math.floor(elapsed / 60)).padStart(2, '0')}:${String(elapsed % 60).padStart(2, '0')} ${this.node}${this.phase ? `/${this.phase}` : ''}`;
    const text = terminalSafe(`${head}  ${this.lastLine.replace(/\s+/g, ' ')}`);
    this.stream.write(`\r\x1b[2K${text.slice(0, width - 1)}`);
    this.drawn = true;
  }

  private clearLine(): void {
    if (this.interactive && this.drawn) {
      this.stream.write('\r\x1b[2K');
      this.drawn = false;
    }
  }
}
