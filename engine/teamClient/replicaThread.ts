import { EngramError } from '../errors';
import type { EngramErrorCode } from '../errors';
import type { Logger } from '../host';
import type { MethodName } from '../api/methods';
import { WorkerChannel } from '../process/workerKit';
import type { WorkerScript } from '../process/workerKit';
import { parseWorkerLogLine } from '../vectors/workerProtocol';
import { REPLICA_IDLE_MS } from './heldReplica';
import type { ReplicaAccess } from './heldReplica';
import type { TeamTarget } from './teamConnection';
import type { SyncOutcome } from './teamReplica';

/** What the replica worker (replicaWorker.ts) is started with. */
export interface ReplicaWorkerData {
  directory: string;
  sqlWasmPath: string;
  clientName: string;
}

/** Caller -> worker, one at a time per id. */
export type ReplicaRequest =
  | { id: number; op: 'sync'; target: TeamTarget; now: number }
  | { id: number; op: 'read'; target: TeamTarget; method: MethodName; params: unknown }
  | { id: number; op: 'close' };

/** Worker -> caller: the answer to request `id`. */
export type ReplicaReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; code: EngramErrorCode; message: string };

export function isReplicaReply(message: unknown): message is ReplicaReply {
  const m = message as Partial<{ id: unknown; ok: unknown; message: unknown }> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof m.id === 'number' &&
    (m.ok === true || (m.ok === false && typeof m.message === 'string'))
  );
}

export interface ReplicaThreadOptions extends ReplicaWorkerData {
  /** engine/teamClient/replicaWorker.ts, or its bundle (workerScripts.ts, role `replica`). */
  script: WorkerScript;
  logger: Logger;
  /** @default REPLICA_IDLE_MS */
  idleMs?: number;
}

/**
 * The replica of the team scope in a worker thread that owns its store (a HeldReplica there), so
 * that neither a sync nor a read runs sql.js on the caller's thread: in the VS Code extension
 * host, a first copy of 10,000 memories was ~1.2 s of CPU in one stretch, and every read opened
 * the store (~34 ms). The worker starts on the first call and ends after `idleMs` without one
 * (closing the store) or on close(); a worker that crashes fails the calls in flight, and the
 * next call starts another.
 */
export class ReplicaThread implements ReplicaAccess {
  readonly directory: string;
  private worker: WorkerChannel<ReplicaRequest, ReplicaReply> | undefined;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly options: ReplicaThreadOptions) {
    this.directory = options.directory;
  }

  sync(target: TeamTarget, now: number): Promise<SyncOutcome> {
    return this.ask({ op: 'sync', target, now }).catch((error: unknown) => ({
      kind: 'failed' as const,
      reason: error instanceof Error ? error.message : String(error),
    })) as Promise<SyncOutcome>;
  }

  read(target: TeamTarget, method: MethodName, params: unknown): Promise<unknown> {
    return this.ask({ op: 'read', target, method, params });
  }

  async close(): Promise<void> {
    clearTimeout(this.idle);
    const worker = this.worker;
    if (!worker) return;
    await this.ask({ op: 'close' }).catch(() => undefined);
    if (this.worker === worker) this.worker = undefined;
    await worker.terminate();
  }

  /** Whether the worker runs now (tests). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  private ask(request: DistributiveOmit<ReplicaRequest, 'id'>): Promise<unknown> {
    clearTimeout(this.idle);
    const worker = this.start();
    const id = this.nextId++;
    // Held while it works for someone (an unref'd worker would let a waiting process exit).
    worker.ref();
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.post({ ...request, id });
    }).finally(() => this.idleLater());
  }

  private start(): WorkerChannel<ReplicaRequest, ReplicaReply> {
    if (this.worker) return this.worker;
    const { script, logger, directory, sqlWasmPath, clientName } = this.options;
    const worker = WorkerChannel.start<ReplicaRequest, ReplicaReply>(script, {
      name: 'the replica worker',
      isReply: isReplicaReply,
      workerData: { directory, sqlWasmPath, clientName } satisfies ReplicaWorkerData,
      onOutputLine: (line) => {
        const { level, text } = parseWorkerLogLine(line);
        logger[level](`replica worker: ${text}`);
      },
    });
    worker.onReply((reply) => {
      const call = this.pending.get(reply.id);
      if (!call) return;
      this.pending.delete(reply.id);
      if (reply.ok) call.resolve(reply.value);
      else call.reject(new EngramError(reply.code, reply.message));
    });
    worker.onEnd((reason) => {
      if (this.worker === worker) this.worker = undefined;
      for (const call of this.pending.values()) call.reject(new EngramError('UNAVAILABLE', reason));
      this.pending.clear();
    });
    this.worker = worker;
    return worker;
  }

  private idleLater(): void {
    if (this.pending.size > 0 || !this.worker) return;
    this.worker.unref();
    clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.close(), this.options.idleMs ?? REPLICA_IDLE_MS);
    this.idle.unref();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
