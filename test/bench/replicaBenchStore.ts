/**
 * What the replica benchmarks share (teamReplicaBench.ts, replicaStallBench.ts): a `engram serve
 * --team` process loaded with `memories` memories through `rememberMany`, how they open a replica's
 * store, and the shape of main's `syncReplica` they measure as a base.
 */
import path from 'node:path';
import { Engram } from '../../engine/engram';
import type { TeamTarget } from '../../engine/teamClient/teamConnection';
import { addToken, rpc, startTeamServer } from '../teamServer/teamServerProcess';
import type { TeamServerProcess } from '../teamServer/teamServerProcess';
import { SQL_WASM_PATH } from '../support/temp';

export const openReplica = (dbPath: string) => Engram.open({ dbPath, sqlWasmPath: SQL_WASM_PATH });

/** A `syncReplica(target, directory, open, now)`: this tree's, or main's loaded with --base. */
export type Sync = (
  target: TeamTarget,
  directory: string,
  open: typeof openReplica,
  now: number,
) => Promise<unknown>;

export const memoryText = (n: number) =>
  `Decision ${n}: the ${['loader', 'cache', 'router', 'queue', 'parser'][n % 5]} of service ${n % 97} reads its settings from config ${n % 13}`;

/** Takes `--name VALUE` out of `args`. */
export function takeOption(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
}

export interface LoadedServer {
  server: TeamServerProcess;
  target: TeamTarget;
  send: (method: string, params: unknown) => Promise<unknown>;
}

/** A team server on `dir`/server/team.db holding `memories` memories (memoryText), unthrottled. */
export async function loadedServer(dir: string, memories: number, label: string): Promise<LoadedServer> {
  const serverDb = path.join(dir, 'server', 'team.db');
  const token = addToken(serverDb, 'bench', 'memory:read,memory:write');
  const server = await startTeamServer(serverDb, ['--port', '0', '--rate', '1000000']);
  let calls = 0;
  const send = async (method: string, params: unknown) => {
    const answer = await rpc(server.url, token, { id: `${label}-${++calls}`, method, params });
    if (answer.status !== 200) throw new Error(`${method}: ${JSON.stringify(answer.body)}`);
    return answer.body['result'];
  };
  for (let from = 0; from < memories; from += 500)
    await send('rememberMany', {
      memories: Array.from({ length: Math.min(500, memories - from) }, (_, i) => ({
        content: memoryText(from + i),
      })),
    });
  return { server, target: { url: server.url, token }, send };
}
