/**
 * Imported first by every worker script (see workerKit.ts): sends everything the worker writes to
 * stdout or stderr (TF.js warnings, emscripten output, a stray console.log, log lines) to the
 * caller as messages, which it logs or drops. A worker's stdout otherwise ends up on the caller's
 * stdout, the MCP channel. Messages rather than `new Worker(..., { stdout: true })` streams,
 * because a piped stream that is being read keeps the caller's process alive even after
 * `worker.unref()`.
 */
import { parentPort } from 'node:worker_threads';
import type { WorkerOutputMessage } from './workerKit';

for (const name of ['stdout', 'stderr'] as const) {
  const stream = process[name];
  stream.write = (chunk: string | Uint8Array, encodingOrDone?: unknown, done?: unknown): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const message: WorkerOutputMessage = { workerOutput: name, text };
    parentPort?.postMessage(message);
    const callback = typeof encodingOrDone === 'function' ? encodingOrDone : done;
    if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
    return true;
  };
}
