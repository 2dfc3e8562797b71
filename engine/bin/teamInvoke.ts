import type { MethodName } from '../api/methods';
import { callThroughTeam } from '../teamClient/teamCall';
import type { TeamCallOutcome } from '../teamClient/teamCall';
import type { TeamTarget } from '../teamClient/teamConnection';
import { WriteQueue } from '../teamClient/writeQueue';

/**
 * A CLI call for the team server. A write the server cannot take now is queued (a line on stdout
 * says so; `engram team flush` or the next call sends it); a read it cannot answer is answered by
 * the caller from the local database, with a line on stderr saying so.
 */
export async function invokeTeam(
  target: TeamTarget,
  queueDirectory: string,
  method: MethodName,
  params: unknown,
  io: { stdout(text: string): void; stderr(text: string): void; json: boolean },
): Promise<TeamCallOutcome> {
  const outcome = await callThroughTeam(target, new WriteQueue(queueDirectory), method, params, Date.now());
  if (outcome.kind === 'queued') {
    const { id } = outcome.write;
    io.stdout(
      io.json
        ? `${JSON.stringify({ queued: { method, request: id, reason: outcome.reason, waiting: outcome.waiting } }, null, 2)}\n`
        : `queued ${method} (request ${id}) for ${target.url}: ${outcome.reason}; ${outcome.waiting} waiting, sent by the next call or engram team flush\n`,
    );
  }
  if (outcome.kind === 'offline')
    io.stderr(
      `engram: ${target.url} did not answer (${outcome.reason}); answering from the local database\n`,
    );
  return outcome;
}
