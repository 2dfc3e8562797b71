import assert from 'node:assert/strict';
import path from 'node:path';
import { Engram } from '../../engine/engram';
import { replicaDatabase, replicaDirectory } from '../../engine/teamClient/teamReplica';
import type { SyncOutcome } from '../../engine/teamClient/teamReplica';
import { SQL_WASM_PATH, tempDir } from '../support/temp';
import { addToken, rpc, startTeamServer } from './teamServerProcess';
import type { TeamServerProcess } from './teamServerProcess';

/** The servers the replica tests started: each test file stops them after its tests. */
export const servers: TeamServerProcess[] = [];

/** `copied 5`, `updated 1`, `current 0`, or why it failed. */
export function outcome(sync: SyncOutcome): string {
  return sync.kind === 'failed' ? sync.reason : `${sync.kind} ${sync.memories}`;
}

/**
 * A real `engram serve --team` process with a read-write token for alice, and a replica directory
 * of a client beside it: `send` calls the server's /rpc, `inReplica` reads the replica's own store.
 */
export async function replicaSetUp(prefix: string) {
  const dir = tempDir(prefix, { afterTest: false });
  const serverDb = path.join(dir, 'server', 'team.db');
  const token = addToken(serverDb, 'alice', 'memory:read,memory:write');
  const server = await startTeamServer(serverDb, ['--port', '0']);
  servers.push(server);
  const target = { url: server.url, token };
  const replica = replicaDirectory(path.join(dir, 'client', 'memory.db'));
  const open = (dbPath: string) => Engram.open({ dbPath, sqlWasmPath: SQL_WASM_PATH });
  let calls = 0;
  const send = async <T>(method: string, params: unknown): Promise<T> => {
    const answer = await rpc(server.url, token, { id: `${prefix}${++calls}`, method, params });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body['result'] as T;
  };
  /** Reads the replica's own store, as an offline read would. */
  const inReplica = async <T>(read: (engram: Engram) => Promise<T>): Promise<T> => {
    const engram = await open(replicaDatabase(replica));
    try {
      return await read(engram);
    } finally {
      await engram.close();
    }
  };
  return { server, token, target, replica, open, send, inReplica };
}
