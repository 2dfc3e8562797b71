/**
 * Worker entry (bundled as dist/vectorWorker.js): builds one HNSW graph off the caller's thread
 * and posts its bytes back. See workerProtocol.ts. Its stdout and stderr go to the parent as
 * messages, which it forwards to the engine logger, so nothing here can reach the MCP channel.
 */
// First, before hnswlib can print: see captureWorkerOutput.ts.
import '../process/captureWorkerOutput';
import { parentPort, workerData } from 'node:worker_threads';
import type { Logger } from '../host';
import { HnswGraph } from './hnswGraph';
import { loadBundledHnswlib } from './hnswlib';
import { workerLogLine } from './workerProtocol';
import type { BuildJob, BuildReply } from './workerProtocol';

/** Log lines go to stderr, which the parent forwards to its logger at the same level. */
const write =
  (level: 'debug' | 'info' | 'warn' | 'error') =>
  (message: string, data?: Record<string, unknown>): void => {
    process.stderr.write(workerLogLine(level, message, data));
  };
const logger: Logger = {
  debug: write('debug'),
  info: write('info'),
  warn: write('warn'),
  error: write('error'),
};

async function build(job: BuildJob): Promise<BuildReply> {
  const started = performance.now();
  const lib = await loadBundledHnswlib(logger);
  const count = job.labels.length;
  const options = { mirror: false, headroom: count }; // the caller's thread keeps the mirror
  const graph = job.base
    ? await HnswGraph.fromBytes(lib, logger, job.dimension, job.params, job.base, options)
    : HnswGraph.create(lib, logger, job.dimension, job.params, options);
  const items = Array.from(job.labels, (label, i) => ({
    label,
    vector: job.vectors.subarray(i * job.dimension, (i + 1) * job.dimension),
  }));
  graph.upsert(items);
  const bytes = await graph.extract();
  const reply: BuildReply = { type: 'built', bytes, count: graph.size, millis: performance.now() - started };
  graph.dispose();
  return reply;
}

if (parentPort) {
  const port = parentPort;
  build(workerData as BuildJob).then(
    (reply) => port.postMessage(reply, reply.type === 'built' ? [reply.bytes.buffer as ArrayBuffer] : []),
    (error: unknown) =>
      port.postMessage({
        type: 'failed',
        message: error instanceof Error ? error.message : String(error),
      } satisfies BuildReply),
  );
}
