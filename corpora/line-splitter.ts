/**
 * Lines of a byte stream, split at the byte "\n" (which never occurs inside a multi-byte UTF-8
 * sequence): each chunk pushed gives the lines it completes, their bytes without the "\n"; a line
 * that spans chunks is joined from its own pieces once, so the cost is linear however long a line
 * is. The one splitter behind corpora/read-lines.ts (any text file) and the scale bench's piped
 * JSONL reader (bench/read-jsonl.ts).
 *
 *   const split = new LineSplitter(limit, (line) => errors.lineTooLong(file, line, limit));
 *   for await (const chunk of bytes) for (const line of split.push(chunk)) …;
 *   const last = split.end();   // the bytes after the last "\n", if any
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private pending = 0;
  /** Lines completed so far (the next one's number is lines + 1). */
  lines = 0;

  /** `limit`: the longest line in bytes; a longer one throws `tooLong(its 1-based number)`. */
  constructor(
    private readonly limit = Number.POSITIVE_INFINITY,
    private readonly tooLong: (line: number) => Error = (line) => new Error(`line ${line} is longer than ${limit} bytes`),
  ) {}

  /** The lines `chunk` completes, in order. */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf(10, start)) !== -1) {
      if (this.pending + nl - start > this.limit) throw this.tooLong(this.lines + 1);
      out.push(this.take(chunk.subarray(start, nl)));
      this.lines++;
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.pending += chunk.length - start;
      if (this.pending > this.limit) throw this.tooLong(this.lines + 1);
      this.parts.push(chunk.subarray(start));
    }
    return out;
  }

  /** The last line when the stream did not end with "\n" (undefined when it did, or was empty). */
  end(): Buffer | undefined {
    if (!this.pending) return undefined;
    this.lines++;
    return this.take(Buffer.alloc(0));
  }

  private take(piece: Buffer): Buffer {
    const whole = this.parts.length ? Buffer.concat([...this.parts, piece], this.pending + piece.length) : piece;
    this.parts = [];
    this.pending = 0;
    return whole;
  }
}
