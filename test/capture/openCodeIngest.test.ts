import assert from 'node:assert/strict';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { runCapture } from '../../engine/capture/captureRun';
import { setCaptureEnabled } from '../../engine/capture/captureSettings';
import { openCodeSources } from '../../engine/capture/openCode/openCodeSources';
import { rebuildCapture } from '../../engine/capture/rebuild';
import { agentStores } from '../../engine/capture/workspaceSources';
import { ingestRows } from '../../engine/capture/rowIngest';
import type { MemoryStore } from '../../engine/memory/memoryStore';
import { openTestHost } from '../support/host';
import { SQL_WASM_PATH, tempDir } from '../support/temp';
import { SHOP, dumpCapture } from './captureDb';
import { openCodeFixture, writeDatabase, writeStorage } from './openCodeStore';

const MAIN = 'ses_3a1f0c2e4ffeQk7n2Lm8Pq4Rs1';
const CHILD = 'ses_3a1f0b9e2ffeSubAgent00001';
const NOW = 1772442600000 + 3600_000;

/** Every OpenCode session of the workspace read once; the reports, and how many sessions were loaded. */
async function readAll(store: MemoryStore, dataDir: string, sqlWasmPath?: string) {
  const rows = await openCodeSources(dataDir, SHOP, sqlWasmPath === undefined ? {} : { sqlWasmPath });
  try {
    const reports: Array<Awaited<ReturnType<typeof ingestRows>> & { loaded: boolean }> = [];
    for (const source of rows.sources) {
      let loaded = false;
      const load = source.load;
      source.load = (now) => ((loaded = true), load(now));
      reports.push({ ...(await ingestRows(store, source, { root: SHOP, now: NOW })), loaded });
    }
    return reports;
  } finally {
    rows.close(new Set(rows.sources.map((s) => s.path)));
  }
}

const count = (store: MemoryStore, table: string) =>
  store.read((r) => r.value<number>(`SELECT count(*) FROM ${table}`));

test("opencode's data folder is XDG's on every platform, as OpenCode's own", () => {
  assert.equal(agentStores({}, '/home/dev', 'darwin').opencodeData, '/home/dev/.local/share/opencode');
  assert.equal(agentStores({ XDG_DATA_HOME: '/data' }, '/home/dev', 'linux').opencodeData, '/data/opencode');
});

test('opencode ingest: the JSON storage, this workspace only, and a second read adds nothing', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const data = tempDir();
  writeStorage(data, openCodeFixture());
  const first = await readAll(store, data);
  assert.deepEqual(
    first.map((r) => r.sessions).sort(),
    [[CHILD], [MAIN]],
    'not the session of /home/dev/other',
  );
  assert.equal(
    first.reduce((n, r) => n + r.unknown, 0),
    1,
  );
  const sessions = store.read((r) =>
    r.all<{ id: string; agent: string; cwd: string; parent_id: string | null; input_tokens: number }>(
      'SELECT id, agent, cwd, parent_id, input_tokens FROM capture_sessions ORDER BY id',
    ),
  );
  assert.deepEqual(sessions, [
    { id: CHILD, agent: 'opencode', cwd: SHOP, parent_id: MAIN, input_tokens: 0 },
    { id: MAIN, agent: 'opencode', cwd: SHOP, parent_id: null, input_tokens: 1200 },
  ]);
  const touches = store.read((r) =>
    r.all<{ path: string; action: string }>(
      "SELECT DISTINCT path, action FROM capture_file_touches WHERE action != 'read' ORDER BY path, action",
    ),
  );
  assert.deepEqual(touches, [
    { path: 'src/dates.ts', action: 'edit' },
    { path: 'src/index.ts', action: 'edit' },
    { path: 'src/leap.ts', action: 'create' },
    { path: 'src/leap.ts', action: 'edit' },
  ]);
  const commands = store.read((r) => r.all('SELECT command, exit_code FROM capture_commands ORDER BY id'));
  assert.deepEqual(commands, [
    { command: 'npm test -- dates', exit_code: 1 },
    { command: 'TZ=UTC npm test -- dates', exit_code: 0 },
  ]);
  const before = dumpCapture(store);
  const again = await readAll(store, data);
  assert.deepEqual(
    again.map((r) => [r.records, r.loaded]),
    [
      [0, false],
      [0, false],
    ],
    'unchanged: not even loaded',
  );
  assert.deepEqual(dumpCapture(store), before);
  await rebuildCapture(store, SHOP);
  assert.deepEqual(dumpCapture(store), before, 'the ledger alone makes the same rows again');
});

test('opencode ingest: a running tool and a streaming reply are taken once, when they finish', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const data = tempDir();
  const [main] = openCodeFixture();
  if (!main) throw new Error('fixture');
  main.info['time'] = { created: 1772442000000, updated: NOW - 1000 }; // still being worked on
  const reply = main.messages[1];
  if (!reply) throw new Error('fixture');
  delete (reply.info['time'] as Record<string, unknown>)['completed'];
  const bash = reply.parts.find((p) => p['callID'] === 'toolu_bash_1') as Record<string, unknown>;
  const finished = bash['state'];
  bash['state'] = {
    status: 'running',
    input: { command: 'npm test -- dates' },
    time: { start: 1772442015000 },
  };
  const text = reply.parts.find((p) => p['type'] === 'text') as Record<string, unknown>;
  text['time'] = { start: 1772442026000 };
  writeStorage(data, [main]);
  const [first] = await readAll(store, data);
  assert.equal(first?.pending, true);
  assert.equal(count(store, "capture_tool_calls WHERE call_id = 'toolu_bash_1'"), 0, 'not while it runs');
  assert.equal(count(store, "capture_turns WHERE text LIKE 'Fixed:%'"), 0, 'not while it streams');
  const turns = count(store, 'capture_turns') ?? 0;

  // OpenCode rewrites the part's file when the command ends, and the reply's when it completes.
  const partFile = path.join(data, 'storage', 'part', reply.info.id, `${String(bash['id'])}.json`);
  writeFileSync(partFile, JSON.stringify({ ...JSON.parse(readFileSync(partFile, 'utf8')), state: finished }));
  const textFile = path.join(data, 'storage', 'part', reply.info.id, `${String(text['id'])}.json`);
  const streamed = JSON.parse(readFileSync(textFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(
    textFile,
    JSON.stringify({ ...streamed, time: { start: 1772442026000, end: 1772442027000 } }),
  );
  const [second] = await readAll(store, data);
  assert.equal(second?.pending, true, 'the reply itself has not completed');
  const result = store.read((r) =>
    r.get("SELECT status, exit_code FROM capture_tool_calls WHERE call_id = 'toolu_bash_1'"),
  );
  assert.deepEqual(result, { status: 'error', exit_code: 1 });
  assert.equal(count(store, 'capture_turns'), turns + 1, 'the finished reply, once');
  const [third] = await readAll(store, data);
  assert.equal(third?.records, 0, 'read again while pending: nothing new, nothing twice');
});

test('opencode ingest: the database (1.2+) is read, and the JSON storage it was migrated from is not read twice', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const data = tempDir();
  const sessions = openCodeFixture();
  writeStorage(data, sessions); // left by the migration, beside the database
  await writeDatabase(path.join(data, 'opencode.db'), sessions);
  store.write((tx, now) => setCaptureEnabled(tx, true, now));
  const stores = { claudeProjects: data, codexSessions: data, geminiTmp: data, opencodeData: data };
  const capture = () =>
    runCapture(store, { root: SHOP, stores, agents: ['opencode'], sqlWasmPath: SQL_WASM_PATH });
  const run = await capture();
  assert.deepEqual(run.sources.map((s) => path.basename(s.path)).sort(), [
    `opencode.db#${CHILD}`,
    `opencode.db#${MAIN}`,
  ]);
  assert.equal(count(store, 'capture_sessions'), 2);
  const fromDatabase = dumpCapture(store);

  const same = (dump: Record<string, unknown[]>) => ({ ...dump, capture_records: [], capture_sessions: [] });
  for (const layout of ['global', 'per project'] as const) {
    const viaFiles = await openTestHost();
    const files = tempDir();
    writeStorage(files, sessions, layout);
    await readAll(viaFiles.host.store, files);
    assert.deepEqual(same(dumpCapture(viaFiles.host.store)), same(fromDatabase), `the same rows, ${layout}`);
  }

  const rerun = await capture();
  assert.equal(rerun.sources.length, 0, 'read whole and unchanged since: the database is not opened');
  const later = new Date(Date.now() + 5000);
  utimesSync(path.join(data, 'opencode.db'), later, later);
  const changed = await capture();
  assert.equal(changed.sources.length, 2, 'its file changed: opened again');
  assert.equal(
    changed.sources.reduce((n, s) => n + s.records, 0),
    0,
    'nothing new in it',
  );
  assert.equal(run.summaries, 1, 'a summary memory for the session (its sub-agent is in it)');
});
