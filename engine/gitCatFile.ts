import { spawn } from 'node:child_process';
import { gitEnvironment } from './gitEnvironment';

// Its own module, like gitEnvironment: capture's commit links read files at commits too, and must
// not load the drift checker (and simple-git) to do it.

/** Called with each object's text in the order asked: undefined when it is not a file there. */
export type ObjectVisitor = (index: number, text: string | undefined) => void;

/**
 * The contents of `objects` (`commit:path`) in one `git cat-file --batch`: undefined for an object
 * that does not exist (the commit deleted the file) or is not a file (a folder). simple-git cannot
 * write to git's stdin.
 */
export async function catFiles(root: string, objects: readonly string[]): Promise<Array<string | undefined>> {
  const texts: Array<string | undefined> = [];
  await visitFiles(root, objects, (index, text) => {
    texts[index] = text;
  });
  return texts;
}

/**
 * Reads `objects` like catFiles, handing each text to `visit` as it arrives and keeping none: a
 * session's files before its commits can be hundreds of MB, and a caller that keeps a few lines of
 * each holds one file at a time. Rejects when git fails or answers fewer objects than asked.
 */
export function visitFiles(root: string, objects: readonly string[], visit: ObjectVisitor): Promise<void> {
  if (objects.length === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], {
      cwd: root,
      env: gitEnvironment(),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const reader = new BatchReader(visit);
    child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
    child.on('error', (error) => reject(new Error(`git cat-file could not run: ${error.message}`)));
    // A cut-off batch would read as deleted files, an answer that is then stored: it fails instead.
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`git cat-file --batch exited with ${code}`));
      else if (reader.answered < objects.length)
        reject(new Error(`git cat-file --batch answered ${reader.answered} of ${objects.length} objects`));
      else resolve();
    });
    // Git gone before it read its input (killed, failed) breaks the pipe: an error of the stream,
    // fatal to the process when unheard; its exit code above says what happened.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${objects.join('\n')}\n`);
  });
}

const EMPTY = Buffer.alloc(0);

/**
 * `git cat-file --batch` output parsed as it streams: a header `<oid> <type> <size>` and that many
 * bytes and a newline, or a header alone (`<name> missing`, `<name> ambiguous`). A folder's or a
 * commit's body is skipped too, or the next object would be read from inside it.
 */
class BatchReader {
  answered = 0;
  private chunks: Buffer[] = [];
  private size = 0;
  /** The object being read: its body's bytes with the newline after it, and whether it is a file. */
  private body: { bytes: number; blob: boolean } | undefined;

  constructor(private readonly visit: ObjectVisitor) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    for (;;) {
      if (this.body === undefined) {
        const buffer = this.joined();
        const end = buffer.indexOf(0x0a);
        if (end === -1) return;
        const header = /^[0-9a-f]+ (\S+) (\d+)$/.exec(buffer.toString('utf8', 0, end));
        this.take(end + 1);
        if (header) this.body = { bytes: Number(header[2]) + 1, blob: header[1] === 'blob' };
        else this.visit(this.answered++, undefined);
      } else {
        // Joined only once the whole body is here: a large file comes in many small chunks.
        if (this.size < this.body.bytes) return;
        const { bytes, blob } = this.body;
        const text = blob ? this.joined().toString('utf8', 0, bytes - 1) : undefined;
        this.take(bytes);
        this.body = undefined;
        this.visit(this.answered++, text);
      }
    }
  }

  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] ?? EMPTY;
  }

  private take(bytes: number): void {
    const rest = this.joined().subarray(bytes);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.size -= bytes;
  }
}
