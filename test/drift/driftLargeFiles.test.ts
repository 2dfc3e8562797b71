import assert from 'node:assert/strict';
import { truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_MAX_FILE_BYTES } from '../../engine/code/walker';
import { openGit } from '../../engine/drift/gitHistory';
import { StoredHistory } from '../../engine/drift/historyStore';
import { WorkspaceSearch } from '../../engine/drift/workspaceSearch';
import { GitRepository } from './gitRepository';

/**
 * An untracked file over the scanner's size limit is not read by drift's searches: its first bytes
 * are text that matches (so git would report it if it read it), the rest a sparse hole of zeros.
 */
describe('drift searches leave out untracked files over the size limit, like the scanner', () => {
  const repo = new GitRepository();
  repo.commit('initial', '2025-01-10T12:00:00Z', { write: { 'src/app.ts': 'export const tracked = 1;\n' } });
  const text = "validateToken(); app.get('/huge', handler);\n".repeat(200);
  writeFileSync(path.join(repo.root, 'small.ts'), "validateToken(); app.get('/small', handler);\n");
  writeFileSync(path.join(repo.root, 'huge.log'), text);
  truncateSync(path.join(repo.root, 'huge.log'), 200 * 1024 * 1024);
  writeFileSync(
    path.join(repo.root, 'edge.ts'),
    "app.get('/edge', h);\n".padEnd(DEFAULT_MAX_FILE_BYTES, ' '),
  );

  it('finds needles in small untracked files but not in the large one', async () => {
    const search = new WorkspaceSearch(repo.root, await openGit(repo.root, StoredHistory.empty(repo.root)));
    const found = await search.find(['validateToken', 'tracked'], true);
    assert.deepEqual([...(found.get('validateToken') ?? [])], ['small.ts']);
    assert.deepEqual([...(found.get('tracked') ?? [])], ['src/app.ts']);
  });

  it('finds routes in small untracked files (one exactly at the limit) but not in the large one', async () => {
    const search = new WorkspaceSearch(repo.root, await openGit(repo.root, StoredHistory.empty(repo.root)));
    const routes = await search.routes();
    assert.deepEqual([...routes.keys()].sort(), ['/edge', '/small']);
  });
});
