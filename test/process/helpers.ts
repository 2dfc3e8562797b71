/** Shared plumbing for the process tests: temp directories and child processes that speak JSON lines. */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { bundledFixture } from '../support/fixtureBundle';

const root = path.resolve(import.meta.dirname, '../..');

// A test that fails half-way must not leave its children running.
const liveChildren = new Set<ChildProcessWithoutNullStreams>();
process.on('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
});

export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-proc-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export type ChildEvent = Record<string, unknown> & { event: string; pid: number };

export interface Fixture {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;
  readonly events: ChildEvent[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitFor(predicate: (event: ChildEvent) => boolean, timeoutMs?: number): Promise<ChildEvent>;
  send(command: unknown): void;
  stderr(): string;
}

/** Starts test/process/fixtures/<name>.ts (bundled: see fixtureBundle.ts) with one JSON argument. */
export function spawnFixture(name: string, args: unknown): Fixture {
  const script = bundledFixture(path.join(root, 'test/process/fixtures', `${name}.ts`));
  const child = spawn(process.execPath, [script, JSON.stringify(args)], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const events: ChildEvent[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      events.push(JSON.parse(line) as ChildEvent);
    } catch {
      stderr += `\n[stdout, not JSON] ${line}`;
    }
    for (const wake of [...waiters]) wake();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      liveChildren.delete(child);
      resolve({ code, signal });
      for (const wake of [...waiters]) wake();
    });
  });
  liveChildren.add(child);

  const waitFor = (predicate: (event: ChildEvent) => boolean, timeoutMs = 15_000): Promise<ChildEvent> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = events.find(predicate);
        if (found) {
          done();
          resolve(found);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          done();
          reject(new Error(`${name} (pid ${child.pid}) exited before the awaited event; stderr:\n${stderr}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(`${name} (pid ${child.pid}): no awaited event in ${timeoutMs} ms; stderr:\n${stderr}`),
        );
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  return {
    child,
    pid: child.pid ?? -1,
    events,
    exited,
    waitFor,
    send: (command) => child.stdin.write(`${JSON.stringify(command)}\n`),
    stderr: () => stderr,
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs a process that exits at once and returns its pid, which then names no live process. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid ?? 999_999;
}
