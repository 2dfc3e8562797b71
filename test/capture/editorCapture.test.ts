import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { engram } from '../cli/engramCli';
import { tempDir } from '../support/temp';
import { FIXTURES } from './captureDb';

test('capture run reads this workspace Copilot chats and Cline and Roo Code tasks, not other folders', async () => {
  const home = tempDir();
  const root = path.join(home, 'work', 'shop');
  mkdirSync(path.join(root, '.git'), { recursive: true });
  const put = (file: string, text: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
  const user = path.join(home, '.config', 'Code', 'User');
  const workspace = (id: string, folder: string) =>
    put(
      path.join(user, 'workspaceStorage', id, 'workspace.json'),
      JSON.stringify({ folder: pathToFileURL(folder).href }),
    );
  workspace('w1', root);
  put(
    path.join(user, 'workspaceStorage', 'w1', 'chatSessions', '0b5e7a1c-7c1d-4e8a-9f00-5e55c0ff1ce0.jsonl'),
    fixture('copilot-session.jsonl'),
  );
  workspace('w2', '/elsewhere');
  put(
    path.join(user, 'workspaceStorage', 'w2', 'chatSessions', 'other.json'),
    fixture('copilot-session.json'),
  );
  const cline = path.join(user, 'globalStorage', 'saoudrizwan.claude-dev');
  put(
    path.join(cline, 'state', 'taskHistory.json'),
    JSON.stringify([{ id: '1764330000000', ts: 1, task: 't', cwdOnTaskInitialization: root }]),
  );
  put(path.join(cline, 'tasks', '1764330000000', 'ui_messages.json'), fixture('cline-ui_messages.json'));
  const roo = path.join(user, 'globalStorage', 'rooveterinaryinc.roo-cline', 'tasks', '5e6f');
  put(
    path.join(roo, 'api_conversation_history.json'),
    JSON.stringify([{ role: 'user', content: `# Current Workspace Directory (${root}) Files` }]),
  );
  put(path.join(roo, 'ui_messages.json'), fixture('roo-ui_messages.json'));
  const env = { HOME: home, XDG_CONFIG_HOME: '', CLINE_DIR: '', CLINE_DATA_DIR: '' };

  assert.match((await engram(root, ['capture', 'enable'], env)).out, /^capture is on for /);
  const run = await engram(root, ['capture', 'run', '--agent', 'copilot,cline,roo-code'], env);
  assert.equal(run.code, 0, run.err);
  assert.match(run.out, /read 3 session sources of /);
  const status = JSON.parse((await engram(root, ['--json', 'capture', 'status'], env)).out) as {
    sessions: Array<{ agent: string; sessions: number }>;
  };
  assert.deepEqual(
    status.sessions.map((s) => [s.agent, s.sessions]),
    [
      ['cline', 1],
      ['copilot', 1],
      ['roo-code', 1],
    ],
  );
  const listed = await engram(root, ['capture', 'sessions', '--agent', 'copilot'], env);
  assert.match(listed.out, /copilot .* 1 failed command {2}"Fix the date parser"\n$/);
});
