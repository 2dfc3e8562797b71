/**
 * Splits a byte stream into newline-terminated lines: the one line reader of the engine (the host
 * protocol, the MCP stdio transport, worker output). Bytes are kept until a line is complete, so a
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
  /** True while the rest of an oversize line is being dropped (only with `onOversize`). */
  private skipping = false;

  /**
   * @param onOversize Called once for each line that outgrows `maxLineBytes`; the line is dropped
   *   up to its newline and reading goes on (a server answers it with an error and stays up).
   *   Without it, an oversize line throws LineTooLongError and the stream is given up.
   */
  constructor(
    private readonly maxLineBytes: number,
    private readonly onOversize?: () => void,
  ) {}

  /** Returns the lines completed by `chunk` (without their newline; blank lines skipped). */
  push(chunk: Buffer | string): string[] {
    const lines: string[] = [];
    this.read(chunk, (line) => lines.push(line));
    return lines;
  }

  /**
   * Hands each line completed by `chunk` to `onLine` as it is found, so that an oversize line's
   * `onOversize` comes in stream order between the lines around it.
   */
  read(chunk: Buffer | string, onLine: (line: string) => void): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    for (;;) {
      const newline = bytes.indexOf(0x0a, start);
      if (newline < 0) break;
      const line = this.take(bytes.subarray(start, newline));
      if (line !== undefined && line.trim() !== '') onLine(line);
      start = newline + 1;
    }
    if (start < bytes.length) this.append(bytes.subarray(start));
  }

  /** The line ending with `last`, or undefined when it was oversize and dropped. */
  private take(last: Buffer): string | undefined {
    if (!this.append(last)) {
      this.skipping = false;
      return undefined;
    }
    const bytes =
      this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    const text = bytes === undefined ? '' : bytes.toString('utf8');
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }

  /** Keeps `piece` of the current line; false while the line is being dropped as oversize. */
  private append(piece: Buffer): boolean {
    if (this.skipping) return false;
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      if (!this.onOversize) throw new LineTooLongError(this.maxLineBytes);
      this.skipping = true;
      this.onOversize();
      return false;
    }
    if (piece.length > 0) this.pending.push(piece);
    this.pendingBytes += piece.length;
    return true;
  }
}

/** A worker's log line longer than this is dropped: it is a log, not data. */
const MAX_LOG_LINE_BYTES = 64 * 1024;

/**
 * Splits a worker's output text, arriving in arbitrary chunks, into whole lines for a logger,
 * keeping a partial last line until its newline comes.
 */
export function lineSplitter(log: (line: string) => void): (text: string) => void {
  const reader = new LineReader(MAX_LOG_LINE_BYTES, () => log('(a log line too long to show was dropped)'));
  return (text) => reader.read(text, log);
}
