import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { Engram } from '../../engine/engram';
import { replicaDatabase, replicaDirectory, syncReplica } from '../../engine/teamClient/teamReplica';
import { startPostgres } from '../support/postgresServer';
import type { PostgresServer } from '../support/postgresServer';
import { SQL_WASM_PATH, tempDir } from '../support/temp';
import { CLI } from '../cli/engramCli';
import { checkIsolation, startIsolationServer } from './teamIsolation';
import { addToken, freePort, rpc, startTeamServer, teamEnv } from './teamServerProcess';
import type { TeamServerProcess } from './teamServerProcess';

/**
 * `engram serve --team --store postgres://...`: PostgreSQL holds the journal and snapshots, each
 * server process is a replica (engine/pgStore). Against a real PostgreSQL the tests start.
 */
let postgres: PostgresServer;
const servers: TeamServerProcess[] = [];
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await postgres.stop();
});

interface Listed {
  items: Array<{ content: string; confirmations: number }>;
}

async function twoServers(
  database: string,
): Promise<{ db: string; token: string; a: TeamServerProcess; b: TeamServerProcess }> {
  await postgres.createDatabase(database);
  const db = path.join(tempDir('engram-team-pg-', { afterTest: false }), 'team.db');
  const token = addToken(db, 'alice', 'memory:read,memory:write');
  // A high rate: the clients below re-send as fast as the servers answer.
  const store = ['--store', postgres.url(database), '--rate', '1000'];
  const a = await startTeamServer(db, ['--port', '0', ...store]);
  servers.push(a);
  const b = await startTeamServer(db, ['--port', '0', ...store]);
  servers.push(b);
  return { db, token, a, b };
}

it("two servers on one PostgreSQL store: each sees the other's writes, and a request id applies once", async () => {
  const { token, a, b } = await twoServers('two_servers');
  for (const server of [a, b]) {
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as { role: string };
    assert.equal(health.role, 'host', 'each process runs its own replica, none forwards to another');
  }
  const first = await rpc(a.url, token, {
    id: 'pg-write-through-a',
    method: 'remember',
    params: { content: 'The billing service retries webhooks three times' },
  });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const second = await rpc(b.url, token, {
    id: 'pg-write-through-b',
    method: 'remember',
    params: { content: 'Deploys go out from the release branch only' },
  });
  assert.equal(second.status, 200, JSON.stringify(second.body));

  for (const server of [a, b]) {
    const list = await rpc(server.url, token, {
      id: `pg-list-${server.url.slice(-5)}`,
      method: 'list',
      params: {},
    });
    assert.deepEqual((list.body['result'] as Listed).items.map((m) => m.content).sort(), [
      'Deploys go out from the release branch only',
      'The billing service retries webhooks three times',
    ]);
    const recalled = await rpc(server.url, token, {
      id: `pg-recall-${server.url.slice(-5)}`,
      method: 'recall',
      params: { query: 'webhooks retries' },
    });
    const hits = (recalled.body['result'] as { hits: Array<{ memory: { content: string } }> }).hits;
    assert.equal(hits[0]?.memory.content, 'The billing service retries webhooks three times');
  }

  // b's in-memory lexical copy (built in the background since open) learns a's new documents.
  const zeppelin = 'Zeppelin hangar doors close at dusk';
  assert.equal(
    (await rpc(a.url, token, { id: 'pg-zeppelin', method: 'remember', params: { content: zeppelin } }))
      .status,
    200,
  );
  const found = await rpc(b.url, token, {
    id: 'pg-zeppelin-recall',
    method: 'recall',
    params: { query: 'zeppelin hangar' },
  });
  assert.equal(
    (found.body['result'] as { hits: Array<{ memory: { content: string } }> }).hits[0]?.memory.content,
    zeppelin,
  );

  // The same request id through both servers at once: applied once, both answered alike.
  const write = {
    id: 'pg-same-id-both',
    method: 'remember',
    params: { content: 'Sent to both servers once' },
  };
  const [viaA, viaB] = await Promise.all([rpc(a.url, token, write), rpc(b.url, token, write)]);
  assert.equal(viaA.status, 200, JSON.stringify(viaA.body));
  assert.deepEqual(viaB.body, viaA.body, 'the second answer is the first result');
  const again = await rpc(b.url, token, write);
  assert.deepEqual(again.body, viaA.body);
  const list = await rpc(a.url, token, { id: 'pg-list-after', method: 'list', params: {} });
  const items = (list.body['result'] as Listed).items.filter(
    (m) => m.content === 'Sent to both servers once',
  );
  assert.deepEqual(
    items.map((m) => m.confirmations),
    [1],
  );
});

/** Answers that made a client re-send: 503 (PostgreSQL away) and requests cut by a killed server. */
const resent = { unavailable: 0, cut: 0 };

/** One acknowledged write, re-sent under its id (to the other server) until a server answers. */
async function writeUntilAcknowledged(
  targets: () => TeamServerProcess[],
  token: string,
  id: string,
  content: string,
): Promise<void> {
  let last = '';
  for (let attempt = 0; attempt < 400; attempt++) {
    const alive = targets().filter((s) => s.child.exitCode === null && s.child.signalCode === null);
    const server = alive[attempt % alive.length]!;
    try {
      const answer = await rpc(server.url, token, { id, method: 'remember', params: { content } });
      if (answer.status === 200) return;
      last = JSON.stringify(answer.body);
      // 503: the store is unreachable for now; anything else is a failure of the test.
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      resent.unavailable++;
    } catch (error) {
      if (error instanceof assert.AssertionError) throw error;
      last = String(error);
      resent.cut++;
      // The server was killed under the request: re-send to one that lives.
    }
    await delay(50);
  }
  throw new Error(`write ${id} was never acknowledged: ${last}`);
}

it('SIGKILL of a server and a PostgreSQL restart during writes: every acknowledged write kept once', async () => {
  const { db, token, a, b } = await twoServers('failures');
  const acknowledged: string[] = [];
  let killed = false;
  let restarted: Promise<void> | undefined;
  const writer = async (client: number): Promise<void> => {
    for (let i = 0; i < 20; i++) {
      const content = `Write ${i} of client ${client} about service ${client * 100 + i}`;
      await writeUntilAcknowledged(() => [a, b], token, `pg-failure-${client}-${i}`, content);
      acknowledged.push(content);
      if (acknowledged.length === 15 && !killed) {
        killed = true;
        a.child.kill('SIGKILL');
      }
      if (acknowledged.length === 35 && !restarted) {
        restarted = (async () => {
          await postgres.stop();
          await delay(300);
          await postgres.start();
        })();
      }
    }
  };
  await Promise.all([writer(1), writer(2), writer(3)]);
  await restarted;
  assert.equal(acknowledged.length, 60);
  assert.ok(resent.unavailable > 0, 'the restart made the servers answer 503 for a while');

  // A fresh server reads what PostgreSQL kept; the survivor has the same.
  const c = await startTeamServer(db, ['--port', '0', '--store', postgres.url('failures'), '--rate', '1000']);
  servers.push(c);
  for (const server of [b, c]) {
    const list = await rpc(server.url, token, {
      id: `pg-failure-list-${server.url.slice(-5)}`,
      method: 'list',
      params: { limit: 500 },
    });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const items = (list.body['result'] as Listed).items;
    assert.deepEqual(
      items.map((m) => m.content).sort(),
      [...acknowledged].sort(),
      'each acknowledged write, once',
    );
    assert.ok(
      items.every((m) => m.confirmations === 1),
      'no write applied twice',
    );
  }
});

it('a write PostgreSQL refuses is not kept by the replica, and its re-send applies once', async () => {
  const { token, a } = await twoServers('refused');
  const remember = (id: string, content: string) =>
    rpc(a.url, token, { id, method: 'remember', params: { content } });
  const contents = async () =>
    (
      (await rpc(a.url, token, { id: `pg-refused-list-${Date.now()}`, method: 'list', params: {} })).body[
        'result'
      ] as Listed
    ).items.map((m) => m.content);
  assert.equal((await remember('pg-refused-first', 'Kept before the refusal')).status, 200);

  // Real refusal by the server: no record after the ones there now may be appended.
  const admin = new pg.Client({ connectionString: postgres.url('refused') });
  await admin.connect();
  try {
    await admin.query(
      `ALTER TABLE engram_journal ADD CONSTRAINT refuse_more CHECK (seq <= ${await maxSeq(admin)})`,
    );
    const refused = await remember('pg-refused-second', 'Refused by PostgreSQL at append');
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.deepEqual(await contents(), ['Kept before the refusal'], 'the replica did not keep the write');

    await admin.query('ALTER TABLE engram_journal DROP CONSTRAINT refuse_more');
    const resent = await remember('pg-refused-second', 'Refused by PostgreSQL at append');
    assert.equal(resent.status, 200, JSON.stringify(resent.body));
    assert.deepEqual((await contents()).sort(), [
      'Kept before the refusal',
      'Refused by PostgreSQL at append',
    ]);
  } finally {
    await admin.end();
  }
});

async function maxSeq(client: pg.Client): Promise<number> {
  return Number((await client.query<{ m: string }>('SELECT max(seq) AS m FROM engram_journal')).rows[0]!.m);
}

it('a bad --store URL or an unreachable server: one line naming what was wrong, exit non-zero', async () => {
  const db = path.join(tempDir('engram-team-pg-'), 'team.db');
  addToken(db, 'alice', 'memory:read');
  const closedPort = await freePort();
  const cases: Array<[string, RegExp]> = [
    ['mysql://engram@127.0.0.1/team', /--store must be a postgres:\/\/ or postgresql:\/\/ URL; got mysql:/],
    ['not a url', /--store must be a postgres:\/\/user:password@host:port\/database URL; got not a url/],
    [
      `postgres://engram:secret@127.0.0.1:${closedPort}/team`,
      new RegExp(`cannot use PostgreSQL at postgres://engram@127.0.0.1:${closedPort}/team: .*ECONNREFUSED`),
    ],
    [
      postgres.url('no_such_db'),
      /cannot use PostgreSQL at .*\/no_such_db: database "no_such_db" does not exist/,
    ],
  ];
  for (const [store, expected] of cases) {
    const run = spawnSync(
      process.execPath,
      [CLI, '--db', db, 'serve', '--team', '--port', '0', '--store', store],
      {
        encoding: 'utf8',
        env: teamEnv(),
        timeout: 30_000,
      },
    );
    assert.notEqual(run.status, 0, `${store}: exit status`);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `${store}: one line, got ${run.stderr}`);
    assert.match(lines[0]!, expected);
    assert.doesNotMatch(run.stderr, /secret/, 'the password is never printed');
  }
});

it("a team's token cannot read, list, search or change another team's memories (PostgreSQL)", async () => {
  await postgres.createDatabase('isolation');
  const db = path.join(tempDir('engram-team-pg-iso-', { afterTest: false }), 'team.db');
  const setup = await startIsolationServer(db, ['--store', postgres.url('isolation')]);
  servers.push(setup.server);
  await checkIsolation(setup);
  // Each team's journal is in its own schema; the default team's stays where it was.
  const client = new pg.Client({ connectionString: postgres.url('isolation') });
  await client.connect();
  try {
    const { rows } = await client.query<{ schema: string }>(
      "SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'engram_journal' ORDER BY 1",
    );
    assert.deepEqual(
      rows.map((row) => row.schema),
      ['engram_team_alpha', 'engram_team_beta', 'public'],
    );
  } finally {
    await client.end();
  }
});

it("a replica's position in the store holds on every server of one PostgreSQL store", async () => {
  const { db, token, a, b } = await twoServers('replica_position');
  const remember = async (server: TeamServerProcess, id: string, content: string) => {
    const answer = await rpc(server.url, token, { id, method: 'remember', params: { content } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return (answer.body['result'] as { memory: { id: string } }).memory.id;
  };
  const cache = await remember(a, 'pg-replica-1', 'The build cache is kept for a week');
  await remember(b, 'pg-replica-2', 'Release notes are written by the on-call engineer');
  const replica = replicaDirectory(path.join(path.dirname(db), 'client', 'memory.db'));
  const open = (dbPath: string) => Engram.open({ dbPath, sqlWasmPath: SQL_WASM_PATH });
  const viaA = await syncReplica({ url: a.url, token }, replica, open, 1000);
  assert.equal(viaA.kind !== 'failed' && `${viaA.kind} ${viaA.memories}`, 'copied 2');

  const edited = await rpc(b.url, token, {
    id: 'pg-replica-edit',
    method: 'edit',
    params: { id: cache, changes: { content: 'The build cache is kept for two weeks' } },
  });
  assert.equal(edited.status, 200, JSON.stringify(edited.body));
  // A load balancer sends the next sync to the other server: the same URL, another replica of the store.
  const stateFile = path.join(replica, 'replica.json');
  writeFileSync(stateFile, JSON.stringify({ ...JSON.parse(readFileSync(stateFile, 'utf8')), url: b.url }));
  const viaB = await syncReplica({ url: b.url, token }, replica, open, 2000);
  assert.equal(
    viaB.kind !== 'failed' && `${viaB.kind} ${viaB.memories}`,
    'updated 1',
    'only the edited memory',
  );
  const engram = await open(replicaDatabase(replica));
  try {
    assert.deepEqual((await engram.call('list', {})).items.map((m) => m.content).sort(), [
      'Release notes are written by the on-call engineer',
      'The build cache is kept for two weeks',
    ]);
  } finally {
    await engram.close();
  }
});
