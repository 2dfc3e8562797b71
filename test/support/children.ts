import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { bundledFixture } from './fixtureBundle';

export interface WriterProcess {
  child: ChildProcess;
  /** Acknowledged memory ids, in order. */
  acks: string[];
  stderr: string[];
  exited: Promise<number | null>;
  /** Resolves when at least `n` writes were acknowledged (or the process ended). */
  waitForAcks(n: number): Promise<void>;
}

const WRITER = path.join(__dirname, '..', 'fixtures', 'memoryWriter.ts');

/**
 * Starts the memory-writer fixture in its own Node process (bundled: see fixtureBundle.ts); `env`
 * is added to this process's environment (ENGRAM_TEST_STORE: a PostgreSQL store instead of dbPath).
 */
export function startWriter(
  dbPath: string,
  label: string,
  count: number,
  env: NodeJS.ProcessEnv = {},
): WriterProcess {
  const child = spawn(process.execPath, [bundledFixture(WRITER), dbPath, label, String(count)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const acks: string[] = [];
  const stderr: string[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const match = /^ack \d+ (\S+)$/.exec(line);
      if (match) acks.push(match[1]!);
    }
    for (const waiter of waiters.filter((w) => acks.length >= w.n)) waiter.resolve();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      for (const waiter of waiters) waiter.resolve();
      resolve(code);
    }),
  );
  return {
    child,
    acks,
    stderr,
    exited,
    waitForAcks: (n) =>
      acks.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
  };
}
