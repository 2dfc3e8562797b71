import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ingestSource } from '../../engine/capture/ingest';
import { rebuildCapture } from '../../engine/capture/rebuild';
import { agentStores, findSources } from '../../engine/capture/workspaceSources';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { SHOP, copyFixture, dumpCapture } from './captureDb';

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

test('ingest: a document rewritten whole is read again when it changed, and nothing is stored twice', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const dir = path.join(tempDir(), 'tasks', '1764330000000');
  const file = copyFixture('cline-ui_messages.json', dir, 'ui_messages.json');
  const first = await ingestSource(store, { agent: 'cline', path: file }, { root: SHOP });
  assert.equal(first.malformed, 1);
  const before = dumpCapture(store);
  const turns = (before['capture_turns'] ?? []).length;

  // Unchanged: nothing read.
  assert.equal((await ingestSource(store, { agent: 'cline', path: file }, { root: SHOP })).records, 0);

  // Cline rewrites the file: the partial message completed, one message appended.
  const messages = readFileSync(file, 'utf8')
    .replace(/"Still typing","partial":true/, '"Done typing"')
    .replace(/\]$/, ',{"ts":1764330000200,"type":"say","say":"user_feedback","text":"Thanks"}]');
  writeFileSync(file, messages);
  utimesSync(file, new Date(), new Date(Date.now() + 5000));
  const second = await ingestSource(store, { agent: 'cline', path: file }, { root: SHOP });
  assert.equal(second.understood, 2, 'the completed message and the new one');
  assert.ok(second.skipped > 10, 'the records the ledger had are skipped');
  const after = dumpCapture(store);
  assert.equal((after['capture_turns'] ?? []).length, turns + 2);
  assert.equal(after['capture_commands']?.length, before['capture_commands']?.length);
  const session = store.read((r) => r.get<Record<string, unknown>>('SELECT * FROM capture_sessions'));
  assert.equal(session?.['agent'], 'cline');
  assert.equal(session?.['input_tokens'], 1200, 'usage once');
});

test('ingest: a Copilot log compacted by VS Code (shorter, one kind-0 line) adds nothing it had', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const id = '0b5e7a1c-7c1d-4e8a-9f00-5e55c0ff1ce0';
  const file = copyFixture('copilot-session.jsonl', tempDir(), `${id}.jsonl`);
  await ingestSource(store, { agent: 'copilot', path: file }, { root: SHOP });
  const turns = store.read((r) => r.value<number>('SELECT count(*) FROM capture_turns'));
  const compacted = {
    kind: 0,
    v: {
      sessionId: id,
      requests: [
        { requestId: 'request_0a1', message: { text: 'Why does the date test fail on CI?' }, result: {} },
        { requestId: 'request_0b2', message: { text: 'Fix it and run the tests' }, result: {} },
      ],
    },
  };
  writeFileSync(file, `${JSON.stringify(compacted)}\n`);
  const report = await ingestSource(store, { agent: 'copilot', path: file }, { root: SHOP });
  assert.equal(report.records, 1);
  assert.equal(
    store.read((r) => r.value<number>('SELECT count(*) FROM capture_turns')),
    turns,
  );
  const files = store.read((r) => r.all<{ path: string }>('SELECT DISTINCT path FROM capture_file_touches'));
  assert.deepEqual(files, [{ path: 'src/dates.ts' }], 'workspace-relative');
});

test('findSources: Copilot chats of this workspace by workspace.json, Cline and Roo tasks by their directory', async () => {
  const home = tempDir();
  const root = path.join(home, 'work', 'app');
  const stores = agentStores({}, home, 'linux');
  const user = path.join(home, '.config', 'Code', 'User');
  const storage = path.join(user, 'workspaceStorage');
  const chat = (id: string, folder: string, name: string) => {
    write(path.join(storage, id, 'workspace.json'), JSON.stringify({ folder: pathToFileURL(folder).href }));
    return write(path.join(storage, id, 'chatSessions', name), '{"kind":0,"v":{}}\n');
  };
  const mine = chat('a1', root, 's1.jsonl');
  const older = chat('a1', root, 's0.json');
  const inPackage = chat('a2', path.join(root, 'pkg'), 's2.jsonl');
  chat('a3', `${root}-old`, 's3.jsonl');
  write(
    path.join(storage, 'a4', 'workspace.json'),
    JSON.stringify({ folder: 'vscode-remote://ssh-remote+box/work/app' }),
  );
  write(path.join(storage, 'a4', 'chatSessions', 's4.jsonl'), '{}\n');
  // A UNC path this platform cannot make a path of: skipped, not thrown.
  write(path.join(storage, 'a5', 'workspace.json'), JSON.stringify({ folder: 'file://server/share/app' }));
  write(path.join(storage, 'a5', 'chatSessions', 's5.jsonl'), '{}\n');

  const cline = path.join(user, 'globalStorage', 'saoudrizwan.claude-dev');
  write(
    path.join(cline, 'state', 'taskHistory.json'),
    JSON.stringify([
      { id: 't1', ts: 1, task: 'x', cwdOnTaskInitialization: root },
      { id: 't2', ts: 2, task: 'y', cwdOnTaskInitialization: '/elsewhere' },
    ]),
  );
  const task1 = write(path.join(cline, 'tasks', 't1', 'ui_messages.json'), '[]');
  write(path.join(cline, 'tasks', 't2', 'ui_messages.json'), '[]');
  // Not in the history: its first request names the directory.
  write(
    path.join(cline, 'tasks', 't3', 'api_conversation_history.json'),
    JSON.stringify([
      {
        role: 'user',
        content: [
          { type: 'text', text: `<environment_details>\n# Current Working Directory (${root}/pkg) Files\n` },
        ],
      },
    ]),
  );
  const task3 = write(path.join(cline, 'tasks', 't3', 'ui_messages.json'), '[]');
  const roo = path.join(user, 'globalStorage', 'rooveterinaryinc.roo-cline');
  write(
    path.join(roo, 'tasks', 'r1', 'api_conversation_history.json'),
    JSON.stringify([{ role: 'user', content: `# Current Workspace Directory (${root}) Files` }]),
  );
  const rooTask = write(path.join(roo, 'tasks', 'r1', 'ui_messages.json'), '[]');
  write(
    path.join(roo, 'tasks', 'r2', 'api_conversation_history.json'),
    JSON.stringify([{ role: 'user', content: '# Current Workspace Directory (/elsewhere) Files' }]),
  );
  write(path.join(roo, 'tasks', 'r2', 'ui_messages.json'), '[]');

  const found = await findSources(root, stores, { agents: ['copilot', 'cline', 'roo-code'] });
  assert.deepEqual(
    found.map((f) => [f.agent, f.path]).sort(),
    [
      ['cline', task1],
      ['cline', task3],
      ['copilot', inPackage],
      ['copilot', mine],
      ['copilot', older],
      ['roo-code', rooTask],
    ].sort(),
  );
  assert.deepEqual(await findSources(root, stores, { agents: ['codex'] }), []);
});

test('rebuild: the editor formats derive from the ledger alone what ingest derived, rewrites included', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const dir = tempDir();
  const cline = copyFixture(
    'cline-ui_messages.json',
    path.join(dir, 'tasks', '1764330000000'),
    'ui_messages.json',
  );
  const sources = [
    { agent: 'cline' as const, path: cline },
    {
      agent: 'copilot' as const,
      path: copyFixture('copilot-session.jsonl', dir, '0b5e7a1c-7c1d-4e8a-9f00-5e55c0ff1ce0.jsonl'),
    },
    {
      agent: 'copilot' as const,
      path: copyFixture('copilot-session.json', dir, '7d0c1b2a-2222-4c3d-8e4f-0000000000aa.json'),
    },
  ];
  for (const source of sources) await ingestSource(store, source, { root: SHOP });
  // A rewrite: the partial message completed (two versions of one record in the ledger).
  writeFileSync(cline, readFileSync(cline, 'utf8').replace(/"Still typing","partial":true/, '"Done typing"'));
  utimesSync(cline, new Date(), new Date(Date.now() + 5000));
  await ingestSource(store, sources[0] as (typeof sources)[0], { root: SHOP });
  const ingested = dumpCapture(store);
  rmSync(dir, { recursive: true, force: true });
  store.write((tx) => tx.run('DELETE FROM capture_turns'));
  await rebuildCapture(store, SHOP);
  assert.deepEqual(dumpCapture(store), ingested);
});
