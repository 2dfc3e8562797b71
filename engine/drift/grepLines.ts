import { spawn } from 'node:child_process';
import { gitEnvironment } from '../gitEnvironment';
import { GitFailure } from './gitFailure';

/**
 * Runs `git grep` with `args` in `root` and hands each output line to `onLine` as it arrives.
 * A search of a large repository for short needles prints a line per occurrence (npm/cli's docs
 * words: 887 MB), which simple-git would gather into one string longer than V8 allows; read
 * line by line, only what the caller keeps stays in memory. Exit code 1 is "nothing matched".
 */
export function grepLines(
  root: string,
  args: readonly string[],
  onLine: (line: string) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['grep', ...args], {
      cwd: root,
      env: gitEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let rest = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const text = rest + chunk;
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        onLine(text.slice(start, end));
        start = end + 1;
      }
      rest = text.slice(start);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    child.on('error', (error) => reject(new GitFailure(`git grep could not run: ${error.message}`)));
    child.on('close', (code) => {
      if (rest.length > 0) onLine(rest);
      if (code === 0 || code === 1) resolve();
      else reject(new GitFailure(`git grep exited with code ${code}: ${stderr.trim().split('\n')[0] ?? ''}`));
    });
  });
}
