import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import { test } from 'node:test';
import { fullCollection, IdleCollector, LARGE_REPLY_CHARS } from '../../engine/process/idleCollector';

/** Builds ~60 MB of objects that are garbage as soon as it returns. */
function makeGarbage(): number {
  const rows: { id: number; text: string }[] = [];
  for (let i = 0; i < 600_000; i++) rows.push({ id: i, text: `observation ${i} of a large reply` });
  return rows.length;
}

test('the full collection taken without --expose-gc frees the garbage a large reply leaves', () => {
  const collect = fullCollection();
  assert.ok(collect, 'V8 gave no collection function');
  assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'gc leaked onto the global');
  makeGarbage();
  const before = process.memoryUsage().heapUsed;
  collect();
  const after = process.memoryUsage().heapUsed;
  assert.ok(after < before / 2, `heap used ${before} -> ${after} bytes`);
});

test('the collection compacts: pages that kept a few survivors are given back', () => {
  const collect = fullCollection();
  assert.ok(collect, 'V8 gave no collection function');
  // 400k rows that live through two scavenges (so into the old generation), one in fifty kept: a
  // survivor on every page, as whole-graph reads leave them. A collection without compaction kept
  // ~48 MB committed for ~6 MB live.
  const batches: { i: number; text: string }[][] = [];
  for (let r = 0; r < 40; r++)
    batches.push(Array.from({ length: 10_000 }, (_, i) => ({ i, text: `row ${i} of batch ${r}` })));
  const kept = batches.flatMap((rows) => rows.filter((_, i) => i % 50 === 0));
  batches.length = 0;
  collect();
  const old = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!;
  assert.ok(
    old.space_size < old.space_used_size + 8 * 1024 * 1024,
    `old space ${old.space_size} bytes committed for ${old.space_used_size} used`,
  );
  assert.equal(kept.length, 8000);
});

test('only a large reply schedules a collection, once, after the replies stop', async () => {
  let runs = 0;
  const collector = new IdleCollector(() => runs++, 20);
  for (let i = 0; i < 50; i++) collector.noteReply(LARGE_REPLY_CHARS - 1);
  await sleep(100);
  assert.equal(runs, 0, 'small replies collected');
  collector.noteReply(LARGE_REPLY_CHARS);
  collector.noteReply(10 * LARGE_REPLY_CHARS);
  collector.noteReply(5);
  await sleep(150);
  assert.equal(runs, 1);
  assert.equal(collector.collections, 1);
  collector.noteReply(LARGE_REPLY_CHARS);
  collector.dispose();
  await sleep(100);
  assert.equal(runs, 1, 'a disposed collector still collected');
});

test("the compat bridge's whole graph of 1k entities (a 0.5 MB frame) is large enough to collect after", async () => {
  let runs = 0;
  const collector = new IdleCollector(() => runs++, 20);
  collector.noteReply(508_272); // read_graph at 1k entities with two observations each
  await sleep(100);
  assert.equal(runs, 1);
  collector.dispose();
});

test('without a collection function, nothing is scheduled', async () => {
  const collector = new IdleCollector(null, 5);
  collector.noteReply(LARGE_REPLY_CHARS * 4);
  await sleep(50);
  assert.equal(collector.collections, 0);
});
