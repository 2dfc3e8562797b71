import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  assertNoSecrets,
  assertRedacted,
  FAKE_SECRETS,
  filesUnder,
  TAG_SECRETS,
} from '../support/fakeSecrets';
import { openTestHost } from '../support/host';
import { engramExportWith, mcpMemoryWith } from '../support/secretExport';
import { tempDir } from '../support/temp';
import { WITH_MODEL, engram as runEngram } from './engramCli';

/**
 * The CLI on the database at `db`; fails the test on a non-zero exit. With the default model, as a
 * user runs it: what the embeddings write lies in the store this test searches for secrets.
 */
async function engram(cwd: string, db: string, args: string[]): Promise<string> {
  const result = await runEngram(cwd, ['--db', db, ...args], WITH_MODEL);
  assert.equal(result.code, 0, `engram ${args[0]} failed: ${result.err}`);
  return result.out;
}

test('the CLI stores no secret: remember (content, context, tags, conflict key), edit, annotate, invalidate, both imports', async () => {
  const dir = tempDir();
  const store = path.join(dir, 'store');
  const db = path.join(store, 'memory.db');
  const all = FAKE_SECRETS.map((s) => s.text).join(' ; ');
  const shown: Array<[string, string]> = [];

  // Three remembers hold every kind (a conflict key holds 200 characters), so the CLI starts few times.
  const keys = [FAKE_SECRETS.slice(0, 4), FAKE_SECRETS.slice(4, 7), FAKE_SECRETS.slice(7)];
  const remembered: string[] = [];
  for (const [i, group] of keys.entries()) {
    remembered.push(
      await engram(dir, db, [
        '--json',
        'remember',
        `note ${i} uses ${all}`,
        '--context',
        `pasted ${all}`,
        '--conflict-key',
        group.map((s) => s.text).join(' ; '),
        '--tags',
        ['ops', ...TAG_SECRETS.map((s) => s.text)].join(','),
      ]),
    );
  }
  shown.push(...remembered.map((out, i): [string, string] => [`remember ${i}`, out]));
  const id = (JSON.parse(remembered[0]!) as { memory: { id: string } }).memory.id;
  shown.push(['edit', await engram(dir, db, ['edit', id, `now uses ${all}`])]);
  shown.push(['annotate', await engram(dir, db, ['annotate', id, `found ${all}`])]);
  shown.push(['invalidate', await engram(dir, db, ['invalidate', id, '--reason', `rotated ${all}`])]);

  writeFileSync(path.join(dir, 'export.jsonl'), await engramExportWith(FAKE_SECRETS));
  writeFileSync(path.join(dir, 'memory.jsonl'), mcpMemoryWith(FAKE_SECRETS));
  shown.push(['import engram', await engram(dir, db, ['import', 'export.jsonl'])]);
  shown.push([
    'import mcp-memory',
    await engram(dir, db, ['import', 'memory.jsonl', '--from', 'mcp-memory']),
  ]);

  const list = await engram(dir, db, ['--json', 'list', '--status', 'all', '--limit', '500']);
  shown.push(['list', list]);
  shown.push(['recall', await engram(dir, db, ['--json', 'recall', 'note uses key token password'])]);
  shown.push(['entities', await engram(dir, db, ['--json', 'entities'])]);
  shown.push(['export jsonl', await engram(dir, db, ['export'])]);
  shown.push(['export md', await engram(dir, db, ['export', '--format', 'md'])]);
  const journaled = filesUnder(store);

  // The CLI leaves a small journal beside the snapshot: take one, as a long-lived host would.
  const t = await openTestHost({ dbPath: db });
  await t.host.store.db.snapshot();
  await t.host.close();

  assertNoSecrets([...shown, ...journaled, ...filesUnder(store)]);
  assertRedacted(shown);
  assert.ok(
    (JSON.parse(list) as { total: number }).total > FAKE_SECRETS.length * 2,
    'the imports added memories',
  );
});
