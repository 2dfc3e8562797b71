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

/** Runs the ingesting child until it has committed `batches` batches, then SIGKILLs it. */
function killAfter(dbPath: string, file: string, batches: number): Promise<number> {
  const child = spawn(
    process.execPath,
    [bundledFixture(path.join(__dirname, 'ingestChild.ts')), dbPath, file, SHOP],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let committed = 0;
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      committed += chunk.split('committed').length - 1;
      if (committed >= batches && child.exitCode === null) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL'
        ? resolve(committed)
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
