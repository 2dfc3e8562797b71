import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ingestSource } from '../../engine/capture/ingest';
import { bundledFixture } from '../support/fixtureBundle';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { SHOP, dumpCapture } from './captureDb';
import { syntheticClaudeSession } from './syntheticSession';

/**
 * Runs the ingesting child until it has committed `batches` batches, then SIGKILLs it; resolves
 * with the last transaction it acknowledged and, in bulk mode, the transaction its bulk began after.
 */
function killAfter(
  dbPath: string,
  file: string,
  batches: number,
  mode = '',
): Promise<{ acknowledged: number; bulkFrom: number }> {
  const child = spawn(
    process.execPath,
    [bundledFixture(path.join(__dirname, 'ingestChild.ts')), dbPath, file, SHOP, mode],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let committed = 0;
  let acknowledged = 0;
  let bulkFrom = -1;
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const from = /bulk from (\d+)/.exec(chunk);
      if (from) bulkFrom = Number(from[1]);
      for (const m of chunk.matchAll(/committed (\d+)/g)) {
        committed++;
        acknowledged = Math.max(acknowledged, Number(m[1]));
      }
      if (committed >= batches && child.exitCode === null) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL'
        ? resolve({ acknowledged, bulkFrom })
        : reject(new Error(`child ended before the kill (${String(_code)})`)),
    );
  });
}

test('an ingest killed with SIGKILL mid-way resumes with neither duplicates nor gaps', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'killed.jsonl');
  writeFileSync(file, syntheticClaudeSession(200, SHOP, 'killed')); // 1,000 records
  const once = await openTestHost();
  await ingestSource(once.host.store, { agent: 'claude-code', path: file }, { root: SHOP });
  const expected = dumpCapture(once.host.store);
  await once.host.close();

  const dbPath = path.join(dir, 'db', 'memory.db');
  for (const batches of [3, 40]) await killAfter(dbPath, file, batches);
  const t = await openTestHost({ dbPath });
  const partial = t.host.store.read((r) => r.value<number>('SELECT count(*) FROM capture_records') ?? 0);
  assert.ok(partial > 0 && partial < 1000, `killed part way (${partial} records)`);
  const offset = t.host.store.read((r) => r.value<number>('SELECT offset FROM capture_sources'));
  const lastEnd = t.host.store.read((r) =>
    r.value<number>('SELECT max(offset + length) FROM capture_records'),
  );
  assert.ok(
    offset !== undefined && lastEnd !== undefined && offset >= lastEnd,
    'the offset is past every stored record',
  );
  await ingestSource(t.host.store, { agent: 'claude-code', path: file }, { root: SHOP });
  assert.deepEqual(dumpCapture(t.host.store), expected);
  await t.host.close();
});

test('a bulk ingest killed past its journal limit, with no snapshot since, keeps every acknowledged write', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'bulk.jsonl');
  writeFileSync(file, syntheticClaudeSession(200, SHOP, 'bulk'));
  const dbPath = path.join(dir, 'db', 'memory.db');
  const { acknowledged, bulkFrom } = await killAfter(dbPath, file, 40, 'bulk');
  const t = await openTestHost({ dbPath });
  const stats = t.host.store.db.stats();
  // The window bulk opens: a journal far past its 4 KiB limit that no snapshot had compacted.
  assert.ok(stats.journalBytes > 64 * 1024, `journal of ${stats.journalBytes} bytes`);
  assert.equal(stats.snapshotSeq, bulkFrom, 'no snapshot since the bulk began');
  assert.ok(bulkFrom >= 0 && bulkFrom < acknowledged, `bulk from ${bulkFrom}, acknowledged ${acknowledged}`);
  assert.ok(stats.seq >= acknowledged, `replayed to ${stats.seq}, acknowledged ${acknowledged}`);
  await t.host.close();
});
