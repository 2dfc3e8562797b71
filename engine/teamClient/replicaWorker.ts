/**
 * Worker thread entry: owns the replica of the team scope (a HeldReplica) for ReplicaThread
 * (replicaThread.ts), so its syncs and reads run sql.js here rather than on the host's thread.
 * Requests are answered one at a time, in order.
 */
// First, before anything can print: see captureWorkerOutput.ts.
import '../process/captureWorkerOutput';
import { parentPort, workerData } from 'node:worker_threads';
import { Engram } from '../bin/engineCore';
import { EngramError } from '../errors';
import type { Logger } from '../host';
import { workerLogLine } from '../vectors/workerProtocol';
import { HeldReplica } from './heldReplica';
import type { ReplicaReply, ReplicaRequest, ReplicaWorkerData } from './replicaThread';

const data = workerData as ReplicaWorkerData;

/** Log lines go to stderr, which captureWorkerOutput sends to the caller's logger. */
const logger: Logger = {
  debug: (message, fields) => process.stderr.write(workerLogLine('debug', message, fields)),
  info: (message, fields) => process.stderr.write(workerLogLine('info', message, fields)),
  warn: (message, fields) => process.stderr.write(workerLogLine('warn', message, fields)),
  error: (message, fields) => process.stderr.write(workerLogLine('error', message, fields)),
};

// The caller decides when the worker is idle (it ends the worker then): held until `close`.
const replica = new HeldReplica(
  data.directory,
  (dbPath) => Engram.open({ dbPath, sqlWasmPath: data.sqlWasmPath, clientName: data.clientName, logger }),
  undefined,
);

async function answer(request: ReplicaRequest): Promise<unknown> {
  switch (request.op) {
    case 'sync':
      return replica.sync(request.target, request.now);
    case 'read':
      return replica.read(request.target, request.method, request.params);
    case 'close':
      return replica.close();
  }
}

parentPort?.on('message', (request: ReplicaRequest) => {
  answer(request).then(
    (value) => parentPort?.postMessage({ id: request.id, ok: true, value } satisfies ReplicaReply),
    (error: unknown) =>
      parentPort?.postMessage({
        id: request.id,
        ok: false,
        // Anything else failed in the store (sql.js, the file system).
        code: EngramError.is(error) ? error.code : 'STORE',
        message: error instanceof Error ? error.message : String(error),
      } satisfies ReplicaReply),
  );
});
