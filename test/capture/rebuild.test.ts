import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { ingestSource } from '../../engine/capture/ingest';
import { rebuildCapture } from '../../engine/capture/rebuild';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { SHOP, dumpCapture, fileFixtures } from './captureDb';

test('rebuild derives from the ledger alone exactly what ingest derived', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const dir = tempDir();
  const sources = fileFixtures(dir);
  for (const source of sources) await ingestSource(store, source, { root: SHOP });
  const ingested = dumpCapture(store);
  // The agents' files are gone: the ledger is all there is.
  rmSync(dir, { recursive: true, force: true });
  store.write((tx) => tx.run('DELETE FROM capture_turns'));
  const report = await rebuildCapture(store, SHOP);
  assert.deepEqual(report, { files: 6, records: 64, sessions: 7, summaries: 6, links: 0, linksUnread: 0 });
  assert.deepEqual(dumpCapture(store), ingested);
  await t.host.close();
});
