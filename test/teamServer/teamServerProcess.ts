import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { CLI } from '../cli/engramCli';

export interface TeamServerProcess {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  /** SIGTERM, then waits for the exit (the database flushed and closed). */
  stop(): Promise<void>;
}

/** The CLI's environment for these tests: no embedding model (it costs ~1 s per process). */
export function teamEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ENGRAM_DB: '', ENGRAM_EMBEDDING: 'off', ENGRAM_TEAM_URL: '', ...extra };
}

/** `engram --db DB serve --team ARGS` as its own process, once it printed its address. */
export async function startTeamServer(db: string, args: string[]): Promise<TeamServerProcess> {
  const child = spawn(process.execPath, [CLI, '--db', db, 'serve', '--team', ...args], {
    cwd: path.dirname(db),
    env: teamEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /engram team server at (\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the team server exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `engram --db DB team token add USER --scopes SCOPES [--team TEAM]`: the new token. */
export function addToken(db: string, user: string, scopes: string, team?: string): string {
  const result = spawnSync(
    process.execPath,
    [CLI, '--db', db, 'team', 'token', 'add', user, '--scopes', scopes, ...(team ? ['--team', team] : [])],
    {
      encoding: 'utf8',
      env: teamEnv(),
    },
  );
  if (result.status !== 0) throw new Error(`token add failed: ${result.stderr}`);
  return result.stdout.split('\n')[0]!;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/**
 * One POST /rpc (token undefined: no Authorization header). Sent again once when the server had
 * already closed the kept-alive connection fetch picked (its 5 s keep-alive ran out as the request
 * left, which a loaded machine makes likely): the request never reached it, and the product's
 * own client (teamConnection.ts) re-sends the same way.
 */
export async function rpc(url: string, token: string | undefined, body: unknown): Promise<HttpAnswer> {
  const send = () =>
    fetch(`${url}/rpc`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(body),
    });
  const response = await send().catch((error: unknown) => {
    if (!closedBeforeAnswer(error)) throw error;
    return send();
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** fetch's failure when the server closed the connection before answering (undici's socket error). */
function closedBeforeAnswer(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'ECONNRESET';
}

/** A port nothing listens on right now (for a server that starts later). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
