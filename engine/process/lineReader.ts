/**
 * Splits a byte stream into newline-terminated lines. Bytes are kept until a line is complete, so a
 * multi-byte UTF-8 character split across chunks decodes correctly, and each chunk is scanned once,
 * so a line that arrives in thousands of pieces costs linear time, not quadratic.
 */

/** A line grew past the cap before its newline arrived: the peer is broken or hostile. */
export class LineTooLongError extends Error {
  override readonly name = 'LineTooLongError';

  constructor(readonly maxLineBytes: number) {
    super(`line longer than ${maxLineBytes} bytes`);
  }
}

export class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** Returns the lines completed by `chunk` (without their newline; blank lines skipped). */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline < 0) break;
      const line = this.take(chunk.subarray(start, newline));
      if (line.trim() !== '') lines.push(line);
      start = newline + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
    return lines;
  }

  private take(last: Buffer): string {
    this.append(last);
    const bytes =
      this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    const text = bytes === undefined ? '' : bytes.toString('utf8');
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }

  private append(piece: Buffer): void {
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      throw new LineTooLongError(this.maxLineBytes);
    }
    if (piece.length > 0) this.pending.push(piece);
    this.pendingBytes += piece.length;
  }
}
