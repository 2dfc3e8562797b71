/**
 * The embedding worker thread (bundled as dist/embeddingWorker.js). It loads the model named in
 * `workerData`, answers 'ready', then embeds one request at a time. Model code runs here so that a
 * batch never blocks the extension host's or the MCP server's event loop. Whatever is printed here
 * is sent to the caller's logger: nothing reaches the MCP channel.
 */
// First, before any library can print: see captureWorkerOutput.ts.
import '../process/captureWorkerOutput';
import { parentPort, workerData } from 'node:worker_threads';
import { loadOnnxBackend } from './onnxBackend';
import { loadUseLiteBackend } from './useLiteBackend';
import { isEmbedRequest } from './workerProtocol';
import type { EmbeddingBackend, EmbedRequest, WorkerModelSpec, WorkerReply } from './workerProtocol';

const port = parentPort;
if (!port) throw new Error('embeddingWorker must run in a worker thread');

function reply(message: WorkerReply, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(message, transfer);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Both backends are imported statically: a worker run from source (tsx/cjs) cannot import() a
 * relative module. Importing TF.js only registers its backend; onnxruntime loads on first use.
 */
function loadBackend(spec: WorkerModelSpec): Promise<EmbeddingBackend> {
  return spec.backend === 'use-lite' ? loadUseLiteBackend(spec.assets) : loadOnnxBackend(spec);
}

async function answer(backend: EmbeddingBackend, request: EmbedRequest): Promise<void> {
  try {
    const vectors = await backend.embed(request.texts);
    const data = new Float32Array(vectors.length * backend.dimension);
    vectors.forEach((vector, i) => data.set(vector, i * backend.dimension));
    reply({ type: 'vectors', id: request.id, count: vectors.length, data }, [data.buffer]);
  } catch (error) {
    reply({ type: 'failed', id: request.id, message: messageOf(error) });
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  let backend: EmbeddingBackend;
  try {
    backend = await loadBackend(workerData as WorkerModelSpec);
  } catch (error) {
    reply({ type: 'failed', id: null, message: messageOf(error) });
    return;
  }
  // One request at a time, in arrival order: the model is not re-entrant and the caller batches.
  let previous = Promise.resolve();
  port!.on('message', (message: unknown) => {
    if (!isEmbedRequest(message)) return;
    previous = previous.then(() => answer(backend, message));
  });
  reply({ type: 'ready', dimension: backend.dimension, loadMillis: Math.round(performance.now() - started) });
}

void main();
