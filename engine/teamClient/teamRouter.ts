import { EngramError } from '../errors';
import type { MethodName } from '../api/methods';
import { callThroughTeam, servedByTeam } from './teamCall';
import type { TeamTarget } from './teamConnection';
import { teamStatus } from './teamStatus';
import type { TeamStatus } from './teamStatus';
import { WriteQueue } from './writeQueue';

/**
 * A long-lived host's route to its team server (the VS Code extension; the CLI makes one call per
 * process and uses callThroughTeam directly). The methods the team server serves (METHOD_SCOPES,
 * the CLI's list) go to it; the others, and reads it cannot answer, run on the local database.
 */
export class TeamRouter {
  private readonly queue: WriteQueue;

  /** `tokenFix`: what a user whose token the server refused should do, in this host's words. */
  constructor(
    readonly target: TeamTarget,
    queueDirectory: string,
    private readonly tokenFix: string,
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
    if (outcome.kind === 'answered') return outcome.result;
    if (outcome.kind === 'offline') return local();
    throw new EngramError(
      'UNAVAILABLE',
      `the team server ${this.target.url} did not answer (${outcome.reason}): ${method} is queued, ${outcome.waiting} waiting, sent when it answers`,
      { queued: outcome.write.id, waiting: outcome.waiting },
    );
  }

  /** Connected / offline / token refused, with the queued writes (sending them first). */
  status(): Promise<TeamStatus> {
    return teamStatus(this.target, this.queue, this.tokenFix);
  }

  /** Writes waiting on disk for the server. */
  queued(): number {
    return this.queue.pending().length;
  }
}
