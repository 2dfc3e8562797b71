import { EngramError } from '../errors';
import type { MethodName } from '../api/methods';
import { callThroughTeam, servedByTeam } from './teamCall';
import type { TeamTarget } from './teamConnection';
import { METHOD_SCOPES } from '../teamServer/methodScopes';
import type { ReplicaAccess } from './heldReplica';
import { readReplica, replicaCopy, replicaSyncDue } from './teamReplica';
import type { ReplicaState } from './teamReplica';
import { teamStatus } from './teamStatus';
import type { TeamStatus } from './teamStatus';
import { WriteQueue } from './writeQueue';

/**
 * A long-lived host's route to its team server (the VS Code extension; the CLI makes one call per
 * process and uses callThroughTeam directly). The methods the team server serves (METHOD_SCOPES,
 * the CLI's list) go to it; the others run on the local database. With a replica, a read the
 * server answered refreshes it in the background when due, and a read it cannot answer is
 * answered from it (the status says so: it may be stale); without one, from the local database.
 */
export class TeamRouter {
  private readonly queue: WriteQueue;
  private syncing: Promise<void> | undefined;
  /** The replica the last read was answered from, until the server answers again. */
  private answeredFrom: ReplicaState | undefined;

  /** `tokenFix`: what a user whose token the server refused should do, in this host's words. */
  constructor(
    readonly target: TeamTarget,
    queueDirectory: string,
    private readonly tokenFix: string,
    private readonly replica?: ReplicaAccess,
  ) {
    this.queue = new WriteQueue(queueDirectory);
  }

  /** Whether `method` goes to the team server. */
  serves(method: MethodName): boolean {
    return servedByTeam(method);
  }

  /**
   * `method` on the team server, or `local()` when it is not served there or is a read the server
   * did not answer. A write the server could not take now stays queued and fails with UNAVAILABLE
   * (details.queued: its request id), so the caller says so instead of showing a result it has not.
   */
  async call(method: MethodName, params: unknown, local: () => Promise<unknown>): Promise<unknown> {
    if (!this.serves(method)) return local();
    const outcome = await callThroughTeam(this.target, this.queue, method, params, Date.now(), this.tokenFix);
    if (outcome.kind === 'answered') {
      this.answeredFrom = undefined;
      if (METHOD_SCOPES[method] === 'memory:read') this.syncIfDue();
      return outcome.result;
    }
    if (outcome.kind === 'offline') return this.readOffline(method, params, local);
    throw new EngramError(
      'UNAVAILABLE',
      `the team server ${this.target.url} did not answer (${outcome.reason}): ${method} is queued, ${outcome.waiting} waiting, sent when it answers`,
      { queued: outcome.write.id, waiting: outcome.waiting },
    );
  }

  /**
   * Connected / offline / token refused, with the queued writes (sending them first); offline
   * with a replica, the message says reads come from it and may be stale.
   */
  async status(): Promise<TeamStatus> {
    const status = await teamStatus(this.target, this.queue, this.tokenFix);
    if (status.state === 'connected') this.answeredFrom = undefined;
    const state = this.replica && readReplica(this.replica.directory, this.target);
    if (status.state !== 'offline' || !state) return status;
    return {
      ...status,
      message: `${status.message}; reads come from ${replicaCopy(state)}: they may be stale`,
      replicaAsOf: new Date(state.syncedAt).toISOString(),
    };
  }

  /**
   * While reads come from the replica (the last one the server did not answer did, and it has not
   * answered since): one line for a host to put beside what it shows, saying it may be stale.
   */
  staleNote(): string | undefined {
    const state = this.answeredFrom;
    return (
      state && `The team server ${state.url} did not answer: from ${replicaCopy(state)}, which may be stale.`
    );
  }

  /** The background refresh of the replica in progress, if any (tests wait for it). */
  synced(): Promise<void> {
    return this.syncing ?? Promise.resolve();
  }

  private syncIfDue(): void {
    const replica = this.replica;
    if (!replica || this.syncing) return;
    const now = Date.now();
    if (!replicaSyncDue(replica.directory, this.target, now)) return;
    // A failed copy keeps the last one; the next due read tries again.
    this.syncing = replica.sync(this.target, now).then(() => {
      this.syncing = undefined;
    });
  }

  private async readOffline(
    method: MethodName,
    params: unknown,
    local: () => Promise<unknown>,
  ): Promise<unknown> {
    const state = this.replica && readReplica(this.replica.directory, this.target);
    if (!this.replica || !state) return local();
    // Not while a copy replaces it: that one would be the newer answer anyway.
    await this.synced();
    const result = await this.replica.read(this.target, method, params);
    this.answeredFrom = readReplica(this.replica.directory, this.target) ?? state;
    return result;
  }

  /** Closes the replica's store (and the worker holding it); the router stays usable. */
  async dispose(): Promise<void> {
    await this.synced();
    await this.replica?.close();
  }

  /** Writes waiting on disk for the server. */
  queued(): number {
    return this.queue.pending().length;
  }
}
