import { randomUUID } from 'node:crypto';
import { sendToTeam } from './teamConnection';
import type { TeamTarget } from './teamConnection';
import type { WriteQueue } from './writeQueue';

/**
 * What a host shows about its team server (the VS Code status bar, `engram team` output):
 * - `connected`: the server answered with this token; `queued` writes still wait (0 after a clean flush);
 * - `offline`: no answer; `queued` writes wait on disk for the next flush;
 * - `unauthorized`: the server refused the token: `message` is the one line to show.
 */
export interface TeamStatus {
  state: 'connected' | 'offline' | 'unauthorized';
  queued: number;
  message: string;
  /** Offline with a replica of the team scope (TeamRouter): when it was last synced, ISO 8601. */
  replicaAsOf?: string;
}

/**
 * Flushes the queue, then asks for `stats` (a cheap read every token with memory:read may make)
 * so an empty queue still tells whether the server and the token are good. `tokenHint` names where
 * the host keeps its token, so the message says what to fix there.
 */
export async function teamStatus(
  target: TeamTarget,
  queue: WriteQueue,
  tokenHint: string,
): Promise<TeamStatus> {
  const report = await queue.flush(target);
  const queued = report.waiting;
  if (report.stoppedBy?.unauthorized) return unauthorized(target, queued, report.stoppedBy.reason, tokenHint);
  const outcome = await sendToTeam(target, randomUUID(), 'stats', {});
  if (outcome.kind === 'unreachable')
    return {
      state: 'offline',
      queued,
      message: `team server ${target.url} offline (${outcome.reason}); queued ${queued}`,
    };
  if (outcome.kind === 'refused' && (outcome.status === 401 || outcome.status === 403))
    return unauthorized(target, queued, outcome.message, tokenHint);
  return { state: 'connected', queued, message: `team server ${target.url} connected; queued ${queued}` };
}

function unauthorized(target: TeamTarget, queued: number, reason: string, tokenHint: string): TeamStatus {
  return {
    state: 'unauthorized',
    queued,
    message: `the team server ${target.url} refused the token (${reason}): ${tokenHint}; queued ${queued}`,
  };
}
