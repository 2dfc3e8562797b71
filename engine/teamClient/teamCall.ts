import { randomUUID } from 'node:crypto';
import { EngramError } from '../errors';
import type { EngramErrorCode } from '../errors';
import type { MethodName } from '../api/methods';
import { isEngramCode } from '../process/rpcMessages';
import { METHOD_SCOPES } from '../teamServer/methodScopes';
import { sendToTeam } from './teamConnection';
import type { TeamTarget } from './teamConnection';
import type { QueuedWrite, WriteQueue } from './writeQueue';

/**
 * - `answered`: the team server's result;
 * - `queued`: a write the server could not take now, kept on disk and sent by the next flush;
 * - `offline`: a read the server could not answer: the caller reads its local replica instead.
 */
export type TeamCallOutcome =
  | { kind: 'answered'; result: unknown }
  | { kind: 'queued'; write: QueuedWrite; reason: string; waiting: number }
  | { kind: 'offline'; reason: string };

/** Whether the team server serves this method (the others stay local: code, drift, capture, files). */
export function servedByTeam(method: MethodName): boolean {
  return METHOD_SCOPES[method] !== undefined;
}

/** What the CLI tells a user whose token the server refused (a host passes its own: where it keeps the token). */
export const CLI_TOKEN_FIX = 'fix ENGRAM_TEAM_TOKEN, then engram team flush';

/**
 * One call for the team server. A write goes through the queue, behind any older ones, so writes
 * reach the server in the order they were made; a read is sent after the queue is flushed (so it
 * sees this client's writes) and falls back to `offline` when no answer comes. `tokenFix` ends the
 * message of a refused token: what to do about it in this host.
 */
export async function callThroughTeam(
  target: TeamTarget,
  queue: WriteQueue,
  method: MethodName,
  params: unknown,
  now: number,
  tokenFix = CLI_TOKEN_FIX,
): Promise<TeamCallOutcome> {
  const scope = METHOD_SCOPES[method];
  if (scope === 'memory:write' || scope === 'admin') {
    const write = queue.enqueue(method, params, now);
    const report = await queue.flush(target);
    const sent = report.sent.find((s) => s.write.id === write.id);
    if (sent) return { kind: 'answered', result: sent.result };
    const rejected = report.rejected.find((r) => r.write.id === write.id);
    if (rejected) throw new EngramError(engineCode(rejected.code), rejected.message);
    const stop = report.stoppedBy ?? { reason: 'not sent', unauthorized: false };
    if (stop.unauthorized)
      throw new EngramError(
        'FORBIDDEN',
        `the team server refused the token (${stop.reason}); ${report.waiting} writes wait in the queue: ${tokenFix}`,
      );
    return { kind: 'queued', write, reason: stop.reason, waiting: report.waiting };
  }
  await queue.flush(target);
  const outcome = await sendToTeam(target, randomUUID(), method, params);
  if (outcome.kind === 'answered') return outcome;
  if (outcome.kind === 'unreachable') return { kind: 'offline', reason: outcome.reason };
  throw new EngramError(engineCode(outcome.code), outcome.message);
}

/** The server's error code as the engine's (the CLI's exit status follows it); its own ones (UNAUTHORIZED) are FORBIDDEN. */
function engineCode(code: string): EngramErrorCode {
  return isEngramCode(code) ? code : 'FORBIDDEN';
}
