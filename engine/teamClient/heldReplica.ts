import type { Engram } from '../engram';
import type { MethodName } from '../api/methods';
import type { TeamTarget } from './teamConnection';
import { readReplica, replicaDatabase, syncReplica } from './teamReplica';
import type { OpenReplica, SyncOutcome } from './teamReplica';

/**
 * The replica of the team scope as a long-lived host uses it (TeamRouter): brought up to the
 * server, read from while the server does not answer, and closed. Two implementations: HeldReplica
 * (on the caller's thread) and ReplicaThread (the same in a worker thread, replicaThread.ts).
 */
export interface ReplicaAccess {
  /** The replica's directory (team-replica/ beside the host's database). */
  readonly directory: string;
  /** Brings it up to the server's store (syncReplica); never throws. */
  sync(target: TeamTarget, now: number): Promise<SyncOutcome>;
  /** `method` answered from it (a read the server did not answer). */
  read(target: TeamTarget, method: MethodName, params: unknown): Promise<unknown>;
  /** Closes the store (and the thread holding it); a later call opens it again. */
  close(): Promise<void>;
}

/** How long a replica store nobody used stays open. */
export const REPLICA_IDLE_MS = 5 * 60_000;

/**
 * Keeps the replica's store open between reads and syncs (opening it costs ~34 ms of CPU at 10,000
 * memories), one call at a time, and closes it after `idleMs` unused or on close(). A whole copy
 * replaces the store's files: this holder's own sync releases the store first, and a copy another
 * process wrote (its `copy` id in replica.json differs from the open one's) is opened anew, so a
 * read never answers from a replaced file.
 */
export class HeldReplica implements ReplicaAccess {
  private held: { engram: Engram; copy: string | undefined } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private idle: NodeJS.Timeout | undefined;

  /** `idleMs` undefined: held until close() (a worker whose owner decides when it is idle). */
  constructor(
    readonly directory: string,
    private readonly open: OpenReplica,
    private readonly idleMs: number | undefined = REPLICA_IDLE_MS,
  ) {}

  sync(target: TeamTarget, now: number): Promise<SyncOutcome> {
    return this.serially(() =>
      syncReplica(
        target,
        this.directory,
        { open: this.open, held: { engram: () => this.engram(target), release: () => this.release() } },
        now,
      ),
    );
  }

  read(target: TeamTarget, method: MethodName, params: unknown): Promise<unknown> {
    return this.serially(async () => (await this.engram(target)).call(method, params as never));
  }

  close(): Promise<void> {
    clearTimeout(this.idle);
    const closed = this.queue.then(() => this.release());
    this.queue = closed.catch(() => undefined);
    return closed;
  }

  /** Whether the store is open now (tests). */
  get isOpen(): boolean {
    return this.held !== undefined;
  }

  private async engram(target: TeamTarget): Promise<Engram> {
    const copy = readReplica(this.directory, target)?.copy;
    if (this.held && this.held.copy !== copy) await this.release();
    this.held ??= { engram: await this.open(replicaDatabase(this.directory)), copy };
    return this.held.engram;
  }

  private async release(): Promise<void> {
    const held = this.held;
    this.held = undefined;
    // A store whose files another process replaced may fail to write its last snapshot: it is gone.
    await held?.engram.close().catch(() => undefined);
  }

  /** One call at a time (a read waits for a running sync, whose copy is the newer answer), then the idle timer. */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    clearTimeout(this.idle);
    const run = this.queue.then(work, work);
    this.queue = run
      .catch(() => undefined)
      .then(() => {
        if (this.idleMs === undefined) return;
        clearTimeout(this.idle);
        this.idle = setTimeout(() => void this.close(), this.idleMs);
        this.idle.unref();
      });
    return run;
  }
}
