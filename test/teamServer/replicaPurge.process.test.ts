import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, it } from 'node:test';
import { Engram } from '../../engine/engram';
import { claudeProjectName } from '../../engine/capture/workspaceSources';
import { replicaDatabase, replicaDirectory, syncReplica } from '../../engine/teamClient/teamReplica';
import { engram } from '../cli/engramCli';
import { FIXTURES, SESSION, SHOP } from '../capture/captureDb';
import { SQL_WASM_PATH, tempDir } from '../support/temp';
import { outcome } from './replicaSetUp';
import { addToken, freePort, rpc, startTeamServer } from './teamServerProcess';
import type { TeamServerProcess } from './teamServerProcess';

let server: TeamServerProcess | undefined;
after(() => server?.stop());

interface Listed {
  items: Array<{ id: string; content: string; kind: string }>;
}

it("a memory purged on the server's database leaves every replica at its next sync, and memories written after it are copied", async () => {
  // The server's own workspace, with one Claude Code session of it to capture.
  const home = tempDir('engram-replica-purge-', { afterTest: false });
  const root = path.join(home, 'work', 'shop');
  const session = path.join(home, '.claude', 'projects', claudeProjectName(root), `${SESSION}.jsonl`);
  mkdirSync(path.dirname(session), { recursive: true });
  writeFileSync(
    session,
    readFileSync(path.join(FIXTURES, 'claude-session.jsonl'), 'utf8').replaceAll(SHOP, root),
  );
  mkdirSync(path.join(root, '.git'), { recursive: true });
  const env = { HOME: home, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '', XDG_DATA_HOME: '' };
  const db = path.join(root, '.engram', 'memory.db');
  const cli = async (args: string[]) => {
    const run = await engram(root, ['--db', db, ...args], env);
    assert.equal(run.code, 0, run.err);
    return run.out;
  };
  const token = addToken(db, 'alice', 'memory:read,memory:write');
  const port = String(await freePort());
  const target = { url: `http://127.0.0.1:${port}`, token };
  let calls = 0;
  const send = async <T>(method: string, params: unknown): Promise<T> => {
    const answer = await rpc(target.url, token, { id: `replica-purge-${++calls}`, method, params });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body['result'] as T;
  };
  const replica = replicaDirectory(path.join(home, 'client', 'memory.db'));
  const open = (dbPath: string) => Engram.open({ dbPath, sqlWasmPath: SQL_WASM_PATH });
  const ids = async (listed: Promise<unknown>) => ((await listed) as Listed).items.map((m) => m.id).sort();
  const inReplica = async () => {
    const copy = await open(replicaDatabase(replica));
    try {
      return await ids(copy.call('list', { limit: 100 }));
    } finally {
      await copy.close();
    }
  };

  server = await startTeamServer(db, ['--port', port]);
  const kept = await send<{ memory: { id: string } }>('remember', {
    content: 'Releases are tagged from main',
  });
  await server.stop();
  // Capture reads this machine's agent logs: run here, as the server's operator would.
  await cli(['capture', 'enable']);
  await cli(['capture', 'run', '--agent', 'claude-code']);
  server = await startTeamServer(db, ['--port', port]);
  const before = (await send<Listed>('list', { limit: 100 })).items;
  const summaries = before.filter((m) => m.id !== kept.memory.id).map((m) => m.id);
  assert.ok(summaries.length > 0, 'capture wrote memories of the session');
  assert.equal(outcome(await syncReplica(target, replica, open, 1000)), `copied ${before.length}`);
  assert.deepEqual(await inReplica(), before.map((m) => m.id).sort());

  // Purged through the running server (the CLI is its client); the summaries were the newest rows.
  assert.match(await cli(['capture', 'purge', '--session', SESSION]), /^purged 1 session/);
  // Enough new memories to take the purged rows' numbers again, and more.
  const added = await send<Array<{ memory: { id: string } }>>('rememberMany', {
    memories: Array.from({ length: 12 }, (_, i) => ({ content: `Service ${i} pages the platform on-call` })),
  });
  const after = await ids(send('list', { limit: 100 }));
  assert.equal(after.length, 13);
  assert.equal(
    outcome(await syncReplica(target, replica, open, 2000)),
    `updated ${summaries.length + 12}`,
    'the purged memories and the new ones, incrementally',
  );
  assert.deepEqual(await inReplica(), after, 'the replica holds what the server holds, no purged memory');
  assert.deepEqual(after, [kept.memory.id, ...added.map((m) => m.memory.id)].sort());
});
