import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { engramApi, workspacePath } from '../extensionApi';
import { eventually, test } from '../harness';

test('closing the engine (what deactivate does) flushes and releases the lock; it reopens with data', async () => {
  const api = await engramApi();
  const before = (await api.engine.call('stats', {})).memories;
  const lock = path.join(workspacePath(), '.engram', 'memory.db.lock');
  await api.engine.restart();
  await eventually('the engine to reopen', () => api.engine.state === 'ready' || undefined);
  assert.equal((await api.engine.call('stats', {})).memories, before, 'every memory survived the close');
  await api.engine.close();
  assert.equal(existsSync(lock), false, 'the lock is released on close');
});
