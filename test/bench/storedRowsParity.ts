/**
 * Stored rows of a deterministic write workload, hashed table by table, to compare two versions
 * of the write path (issue 18: derived rows after the acknowledgement must store what one
 * transaction per remember stored). Run it at each commit and diff the output.
 *
 * The workload goes through the engine's methods as a client sends them: single remembers of
 * varied texts naming entities (some repeated: duplicates), conflict keys that supersede, tags,
 * pins, working memory, a secret, batches, concurrent callers, edits and forgets between them. The
 * clock is fixed and advances a second a call (however often a version reads it); the random parts of ids come from a seeded generator.
 * Every table in sqlite_master is dumped in rowid order (FTS4 shadow tables included).
 * Usage: node --import tsx test/bench/storedRowsParity.ts [count]
 */
import crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { seededRandom } from '../support/seededRandom';

// Before the engine loads: ids and the database id draw their random bytes here.
const random = seededRandom(18);
(crypto as { randomFillSync: (buffer: Buffer) => Buffer }).randomFillSync = (buffer: Buffer) => {
  for (let i = 0; i < buffer.length; i++) buffer[i] = Math.floor(random() * 256);
  return buffer;
};
(crypto as { randomBytes: (size: number) => Buffer }).randomBytes = (size: number) =>
  crypto.randomFillSync(Buffer.alloc(size));

const COUNT = Number(process.argv[2] ?? 600);

async function main(): Promise<void> {
  const { EngineDispatcher } = await import('../../engine/api/engineDispatcher');
  const { silentLogger } = await import('../../engine/host');
  const { syntheticMemories } = await import('./syntheticMemories');
  const root = mkdtempSync(path.join(os.tmpdir(), 'engram-parity-'));
  let now = Date.parse('2026-11-29T12:00:00Z');
  const host = await EngineDispatcher.open({
    dbPath: path.join(root, 'memory.db'),
    sqlWasmPath: createRequire(__filename).resolve('sql.js/dist/sql-wasm.wasm'),
    logger: silentLogger,
    clock: () => now,
    snapshot: { idleMs: 3_600_000 },
    embedding: null,
    lexicalCopy: 'never',
  });
  let request = 0;
  // A second a call, read as often as each version likes: the same times in both.
  const call = (method: string, params: unknown) => {
    now += 1000;
    return host.dispatch(method, params, { requestId: `parity-${++request}`, client: 'parity' }) as Promise<{
      memory: { id: string };
    }>;
  };
  const texts = syntheticMemories(COUNT);
  const ids: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const content = i % 17 === 5 ? texts[i - 3]! : texts[i]!; // exact duplicates now and then
    const params: Record<string, unknown> = { content };
    if (i % 7 === 0) params['tags'] = [`area-${i % 5}`, 'parity'];
    if (i % 11 === 0) params['conflictKey'] = `setting-${i % 4}`;
    if (i % 13 === 0) params['pinned'] = true;
    if (i % 19 === 0) Object.assign(params, { layer: 'working', session: `s${i % 3}` });
    if (i === 42) params['content'] = `${content} token ghp_${'a1B2c3D4e5'.repeat(4)}`;
    if (i % 50 === 25) {
      // Plain memories, and the cases that leave a batch's fast path (derivedBatch.ts):
      // a memory already stored, one repeated within the batch, a conflict key, working memory.
      const batch: Array<Record<string, unknown>> = texts
        .slice(i, i + 20)
        .map((t) => ({ content: `${t} (batch)` }));
      batch.push(
        { content: texts[i - 4]! },
        { content: `${texts[i]} (batch)`, tags: ['repeat'] },
        { content: `${texts[i + 1]} (batch key)`, conflictKey: `setting-${i % 4}` },
        { content: `${texts[i + 2]} (batch working)`, layer: 'working', session: 's1' },
        { content: `${texts[i + 3]} (batch pinned)`, pinned: true, tags: ['batch'], kind: 'decision' },
        { content: '   ' },
      );
      await call('rememberMany', { memories: batch });
    } else if (i % 40 === 20) {
      const results = await Promise.all(
        [0, 1, 2, 3].map((k) => call('remember', { content: `${texts[(i + k * 7) % COUNT]} (concurrent)` })),
      );
      ids.push(...results.map((r) => r.memory.id));
    } else {
      ids.push((await call('remember', params)).memory.id);
    }
    if (i % 45 === 44)
      await call('edit', { id: ids[ids.length - 5], changes: { content: `${texts[i]} (edited)` } });
    if (i % 60 === 59) await call('forget', { id: ids[ids.length - 9] });
    if (i % 30 === 29) await call('recall', { query: texts[i]!.split(' ').slice(0, 4).join(' '), k: 5 });
  }
  const tables = host.store.read((r) =>
    r.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"),
  );
  for (const { name } of tables) {
    const rows = host.store.read((r) => r.all(`SELECT * FROM "${name}" ORDER BY rowid`));
    const hash = createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16);
    process.stdout.write(`${name.padEnd(28)} ${String(rows.length).padStart(7)} ${hash}\n`);
  }
  await host.close();
  rmSync(root, { recursive: true, force: true });
}

void main();
