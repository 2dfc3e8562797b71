import { spawn } from 'node:child_process';
import { gitEnvironment } from './gitEnvironment';

// Its own module, like gitEnvironment: capture's commit links read files at commits too, and must
// not load the drift checker (and simple-git) to do it.

/**
 * The contents of `objects` (`commit:path`) in one `git cat-file --batch`: undefined for an object
 * that does not exist (the commit deleted the file). simple-git cannot write to git's stdin.
 */
export function catFiles(root: string, objects: readonly string[]): Promise<Array<string | undefined>> {
  if (objects.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], {
      cwd: root,
      env: gitEnvironment(),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) => reject(new Error(`git cat-file could not run: ${error.message}`)));
    // A cut-off batch would read as deleted files, an answer that is then stored: it fails instead.
    child.on('close', (code) =>
      code === 0
        ? resolve(parseBatch(Buffer.concat(chunks), objects.length))
        : reject(new Error(`git cat-file --batch exited with ${code}`)),
    );
    // Git gone before it read its input (killed, failed) breaks the pipe: an error of the stream,
    // fatal to the process when unheard; its exit code above says what happened.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${objects.join('\n')}\n`);
  });
}

function parseBatch(output: Buffer, count: number): Array<string | undefined> {
  const texts: Array<string | undefined> = [];
  let at = 0;
  while (texts.length < count && at < output.length) {
    const headerEnd = output.indexOf(0x0a, at);
    if (headerEnd === -1) break;
    const header = output.subarray(at, headerEnd).toString('utf8');
    const size = /^[0-9a-f]+ blob (\d+)$/.exec(header)?.[1];
    if (size === undefined) {
      // `<object> missing` (or not a blob): nothing follows the header.
      texts.push(undefined);
      at = headerEnd + 1;
      continue;
    }
    const start = headerEnd + 1;
    texts.push(output.subarray(start, start + Number(size)).toString('utf8'));
    at = start + Number(size) + 1;
  }
  while (texts.length < count) texts.push(undefined);
  return texts;
}
