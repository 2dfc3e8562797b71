import type { MethodName } from '../api/methods';
import type { Engram } from '../engram';
import { callThroughTeam, servedByTeam } from '../teamClient/teamCall';
import type { TeamTarget } from '../teamClient/teamConnection';
import {
  readReplica,
  replicaDatabase,
  replicaDirectory,
  replicaSyncDue,
  staleNotice,
  syncReplica,
} from '../teamClient/teamReplica';
import { queueDirectory, WriteQueue } from '../teamClient/writeQueue';
import { METHOD_SCOPES } from '../teamServer/methodScopes';
import { teamTarget } from './teamServerCommands';

/** Where an answer came from when the team server did not give it: the replica, and as of when. */
export interface StaleMark {
  url: string;
  asOf: string;
}

/**
 * - `answered`: the team server's result;
 * - `queued`: a write kept on disk for the server (a line on stdout said so);
 * - `replica`: a read the server did not answer, answered from the local replica of the team
 *   scope (teamReplica.ts) and marked stale (a line on stderr said so);
 * - `offline`: a read the server did not answer and no replica of it here: the caller answers it
 *   from the local database (a line on stderr said so).
 */
export type TeamAnswer =
  /** `afterPrint`: the replica's refresh, run once the answer is printed so no one waits for it. */
  | { kind: 'answered'; result: unknown; afterPrint?: () => Promise<void> }
  | { kind: 'queued' }
  | { kind: 'replica'; result: unknown; stale: StaleMark }
  | { kind: 'offline' };

/**
 * A CLI call for the team server. A write the server cannot take now is queued (`engram team
 * flush` or the next call sends it). A read it answers refreshes the replica of the team scope
 * when that is due (REPLICA_SYNC_EVERY_MS); a read it cannot answer is answered from that replica.
 * `open` opens an engine on a database file, as the CLI opens its own.
 */
export async function invokeTeam(
  target: TeamTarget,
  dbPath: string,
  method: MethodName,
  params: unknown,
  io: { stdout(text: string): void; stderr(text: string): void; json: boolean },
  open: (dbPath: string) => Promise<Engram>,
): Promise<TeamAnswer> {
  const queue = new WriteQueue(queueDirectory(dbPath));
  const outcome = await callThroughTeam(target, queue, method, params, Date.now());
  const replica = replicaDirectory(dbPath);
  if (outcome.kind === 'answered') {
    const now = Date.now();
    if (METHOD_SCOPES[method] === 'memory:read' && replicaSyncDue(replica, target, now)) {
      // A copy of 10k memories takes seconds: after the answer is on the screen, not before it.
      const afterPrint = async () => {
        const synced = await syncReplica(target, replica, open, now);
        if (synced.kind === 'failed')
          io.stderr(`engram: could not copy the team's memories: ${synced.reason}\n`);
      };
      return { ...outcome, afterPrint };
    }
    return outcome;
  }
  if (outcome.kind === 'queued') {
    const { id } = outcome.write;
    io.stdout(
      io.json
        ? `${JSON.stringify({ queued: { method, request: id, reason: outcome.reason, waiting: outcome.waiting } }, null, 2)}\n`
        : `queued ${method} (request ${id}) for ${target.url}: ${outcome.reason}; ${outcome.waiting} waiting, sent by the next call or engram team flush\n`,
    );
    return { kind: 'queued' };
  }
  const state = readReplica(replica, target);
  if (!state) {
    io.stderr(
      `engram: ${target.url} did not answer (${outcome.reason}); answering from the local database\n`,
    );
    return { kind: 'offline' };
  }
  io.stderr(`engram: ${staleNotice(state, outcome.reason)}\n`);
  const engram = await open(replicaDatabase(replica));
  try {
    const result = await engram.call(method, params as never);
    return {
      kind: 'replica',
      result,
      stale: { url: state.url, asOf: new Date(state.syncedAt).toISOString() },
    };
  } finally {
    await engram.close();
  }
}

/** Prints a CLI call's result; `stale`: it came from the replica of the team scope. */
export type PrintResult = (result: unknown, stale?: StaleMark) => void;

/**
 * Routes a CLI call to the team server when --team-url (or ENGRAM_TEAM_URL) names one and the
 * server serves the method. True when the call is done: answered by the server or from the
 * replica (printed), or queued; false when the caller answers it from the local database (no
 * server, a method it does not serve, or a read it did not answer with no replica here).
 */
export async function routeToTeam(
  call: { teamUrl: string | undefined; dbPath: string; method: MethodName; params: unknown },
  io: { env: NodeJS.ProcessEnv; stdout(text: string): void; stderr(text: string): void; json: boolean },
  print: PrintResult,
  open: (dbPath: string) => Promise<Engram>,
): Promise<boolean> {
  const target = teamTarget(call.teamUrl, io.env);
  if (!target || !servedByTeam(call.method)) return false;
  const answer = await invokeTeam(target, call.dbPath, call.method, call.params, io, open);
  if (answer.kind === 'answered') {
    print(answer.result);
    await answer.afterPrint?.();
    return true;
  }
  if (answer.kind === 'replica') {
    print(answer.result, answer.stale);
    return true;
  }
  return answer.kind === 'queued';
}

/** The result as --json prints it: an answer from the replica carries its stale mark. */
export function withStaleMark(result: unknown, stale: StaleMark | undefined): unknown {
  return stale && typeof result === 'object' && result !== null && !Array.isArray(result)
    ? { ...result, stale }
    : result;
}
