/**
 * Keeps the last `limit` bytes of a stream. Build errors are at the end of the output, so the
 * tail is what a reader (or a heuristic) needs; memory stays bounded however much is printed.
 */
export class OutputTail {
  private chunks: Buffer[] = [];
  private kept = 0;
  totalBytes = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    if (this.limit <= 0) return;
    if (chunk.length >= this.limit) {
      this.chunks = [chunk.subarray(chunk.length - this.limit)];
      this.kept = this.limit;
      return;
    }
    this.chunks.push(chunk);
    this.kept += chunk.length;
    while (this.kept > this.limit) {
      const first = this.chunks[0];
      if (!first) break;
      const excess = this.kept - this.limit;
      if (first.length <= excess) {
        this.chunks.shift();
        this.kept -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.kept -= excess;
      }
    }
  }

  get truncated(): boolean {
    return this.totalBytes > this.kept;
  }

  text(): string {
    const body = Buffer.concat(this.chunks).toString('utf8');
    if (!this.truncated) return body;
    return `[… ${this.totalBytes - this.kept} earlier bytes omitted …]\n${body}`;
  }
}
