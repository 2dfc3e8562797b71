import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { agentStores, claudeProjectName, findSources, isInside } from '../../engine/capture/workspaceSources';
import { tempDir } from '../support/temp';

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const claudeLine = (cwd: string) =>
  `${JSON.stringify({ type: 'user', cwd, sessionId: 's', message: { content: 'hi' } })}\n`;
const codexMeta = (cwd: string) =>
  `${JSON.stringify({ timestamp: '2026-03-03T10:00:00Z', type: 'session_meta', payload: { id: 'c', cwd } })}\n`;

test('isInside: the folder itself and what is under it, nothing beside it', () => {
  assert.ok(isInside('/w/app', '/w/app'));
  assert.ok(isInside('/w/app/pkg/a', '/w/app'));
  assert.ok(!isInside('/w/app-old', '/w/app'));
  assert.ok(!isInside('/w', '/w/app'));
  assert.ok(!isInside('/w/app/../other', '/w/app'));
  assert.equal(claudeProjectName('/home/dev/my.app'), '-home-dev-my-app');
});

test('findSources: only the sessions whose working directory is the workspace or inside it', async () => {
  const home = tempDir();
  const root = path.join(home, 'work', 'app');
  const stores = agentStores({}, home);
  const projects = stores.claudeProjects;
  const mine = write(path.join(projects, claudeProjectName(root), 's1.jsonl'), claudeLine(root));
  const sub = write(
    path.join(projects, claudeProjectName(root), 's1', 'subagents', 'agent-1.jsonl'),
    claudeLine(root),
  );
  const inPackage = write(
    path.join(projects, claudeProjectName(path.join(root, 'pkg')), 's2.jsonl'),
    claudeLine(path.join(root, 'pkg')),
  );
  // `/work/app-old` encodes with this workspace's name as prefix; `/work/app/old`... would too.
  const beside = write(
    path.join(projects, claudeProjectName(`${root}-old`), 's3.jsonl'),
    claudeLine(`${root}-old`),
  );
  // In the workspace's folder (`/work/app` and `/work.app` share a name), but of another directory.
  const collision = write(
    path.join(projects, claudeProjectName(root), 's4.jsonl'),
    claudeLine(path.join(home, 'work.app')),
  );
  const elsewhere = write(path.join(projects, '-somewhere-else', 's5.jsonl'), claudeLine('/somewhere/else'));
  const day = path.join(stores.codexSessions, '2026', '03', '03');
  const codexMine = write(
    path.join(day, 'rollout-2026-03-03T10-00-00-a.jsonl'),
    codexMeta(path.join(root, 'api')),
  );
  const codexOther = write(
    path.join(day, 'rollout-2026-03-03T11-00-00-b.jsonl'),
    codexMeta('/somewhere/else'),
  );
  const aider = write(
    path.join(root, '.aider.chat.history.md'),
    '# aider chat started at 2026-03-04 14:00:00\n',
  );
  const geminiLine = (projectRoot: string) =>
    `${JSON.stringify({ sessionId: 'g', projectHash: createHash('sha256').update(projectRoot).digest('hex') })}\n`;
  const gemini = path.join(stores.geminiTmp, 'shop', 'chats');
  const geminiMine = write(path.join(gemini, 'session-2026-03-06T08-00-aaaa.jsonl'), geminiLine(root));
  const geminiSub = write(path.join(gemini, 'g', 'sub-1.jsonl'), geminiLine(root));
  const geminiOther = write(
    path.join(stores.geminiTmp, 'other', 'chats', 'session-2026-03-06T08-00-bbbb.jsonl'),
    geminiLine('/somewhere/else'),
  );

  const opened: string[] = [];
  const readHead = (file: string) => {
    opened.push(file);
    return Promise.resolve(readFileSync(file, 'utf8'));
  };
  const found = await findSources(root, stores, { readHead });
  assert.deepEqual(
    found.map((f) => [f.agent, f.path]),
    [
      ['claude-code', inPackage],
      ['claude-code', mine],
      ['claude-code', sub],
      ['codex', codexMine],
      ['gemini', geminiSub],
      ['gemini', geminiMine],
      ['aider', aider],
    ],
  );
  assert.ok(!found.some((f) => [beside, collision, elsewhere, codexOther, geminiOther].includes(f.path)));
  assert.ok(!opened.includes(elsewhere), 'a Claude Code folder of another name is never opened');

  // Which folder a file belongs to is read once: the next round opens nothing it has seen.
  opened.length = 0;
  assert.deepEqual(await findSources(root, stores, { readHead }), found);
  assert.deepEqual(opened, []);

  const onlyAider = await findSources(root, stores, { agents: ['aider'], readHead });
  assert.deepEqual(
    onlyAider.map((f) => f.agent),
    ['aider'],
  );
  // --since: files last written before it are left out.
  utimesSync(mine, new Date('2020-01-01'), new Date('2020-01-01'));
  const recent = await findSources(root, stores, {
    since: Date.parse('2024-01-01'),
    agents: ['claude-code'],
  });
  assert.ok(!recent.some((f) => f.path === mine));
  assert.ok(recent.some((f) => f.path === inPackage));
});

test("findSources: Gemini CLI's older whole chats and its checkpoints, by the project's hash or marker", async () => {
  const home = tempDir();
  const root = path.join(home, 'work', 'app');
  const stores = agentStores({}, home);
  const hash = createHash('sha256').update(root).digest('hex');
  const pretty = (projectRoot: string) =>
    JSON.stringify(
      { sessionId: 'g', projectHash: createHash('sha256').update(projectRoot).digest('hex'), messages: [] },
      null,
      2,
    );
  // Before its short project names, the folder was the hash; a whole chat names it on line 3.
  const byHash = path.join(stores.geminiTmp, hash);
  const chat = write(path.join(byHash, 'chats', 'session-2025-10-01T09-00-aaaa.json'), pretty(root));
  const subChat = write(path.join(byHash, 'chats', 'g', 'sub-1.json'), pretty(root));
  const saved = write(path.join(byHash, 'checkpoint-rename.json'), '[]');
  // A short name with the root in its marker.
  const named = path.join(stores.geminiTmp, 'app');
  write(path.join(named, '.project_root'), `${root}\n`);
  const savedNamed = write(path.join(named, 'checkpoint-scripts.json'), '{"history":[]}');
  // Another project's files: its chat names another hash, its checkpoints sit in its folder.
  const other = path.join(stores.geminiTmp, 'other');
  write(path.join(other, '.project_root'), '/somewhere/else');
  const otherChat = write(
    path.join(other, 'chats', 'session-2025-10-02T09-00-bbbb.json'),
    pretty('/somewhere/else'),
  );
  const otherSaved = write(path.join(other, 'checkpoint-x.json'), '[]');
  const opened: string[] = [];
  const readHead = (file: string) => {
    opened.push(file);
    return Promise.resolve(readFileSync(file, 'utf8'));
  };
  const found = await findSources(root, stores, { agents: ['gemini'], readHead });
  assert.deepEqual(found.map((f) => f.path).sort(), [chat, subChat, saved, savedNamed].sort());
  assert.ok(!found.some((f) => f.path === otherChat || f.path === otherSaved));
  assert.ok(!opened.includes(otherSaved), "another project's checkpoint is never opened");
});
