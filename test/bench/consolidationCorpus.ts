import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import type { HostOptions } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import { storeFiles } from '../../engine/store/storeFiles';
import { seededRandom } from '../support/seededRandom';

const DAY = 24 * 60 * 60 * 1000;
/** Memories per topic: each topic's memories name one file of their own (what consolidation clusters by). */
const TOPIC_SIZE = 5;
export const CORPUS_START = Date.parse('2026-01-01T00:00:00Z');
const sqlWasmPath = require.resolve('sql.js/dist/sql-wasm.wasm');

/**
 * A synthetic memory for the consolidation throughput bench (generated text that says nothing
 * real): episodes in topics of five that share a file of their own, written a minute
 * apart, four in five of them read on two different days (consolidation's candidates). Built once
 * per size into `cacheDir` and copied for each run: building 100k memories takes minutes.
 */
export async function consolidationCorpus(count: number, cacheDir: string, into: string): Promise<string> {
  const built = path.join(cacheDir, `consolidate-${count}.db`);
  if (!existsSync(built)) await build(count, built);
  mkdirSync(into, { recursive: true });
  const target = path.join(into, 'memory.db');
  for (const key of ['database', 'journal', 'snapshotSum'] as const) {
    const from = storeFiles(built)[key];
    if (existsSync(from)) copyFileSync(from, storeFiles(target)[key]);
  }
  return target;
}

/** The clock the corpus was accessed by, plus a day: when the bench consolidates. */
export function corpusNow(count: number): number {
  return CORPUS_START + count * 60_000 + 3 * DAY;
}

export function benchHostOptions(dbPath: string, clock: () => number): HostOptions {
  return {
    dbPath,
    sqlWasmPath,
    logger: silentLogger,
    clock,
    snapshot: { idleMs: 3_600_000, maxJournalBytes: 1 << 30 },
    embedding: null,
    lexicalCopy: 'never',
    // As the extension host and the MCP bridge: snapshots, and so consolidation's plan, in a worker.
    checkpointInWorker: true,
  };
}

async function build(count: number, dbPath: string): Promise<void> {
  rmSync(dbPath, { force: true });
  let now = CORPUS_START;
  const host = await EngineDispatcher.open(benchHostOptions(dbPath, () => now));
  const texts = topicTexts(count);
  let seq = 0;
  const ids: string[] = [];
  for (let i = 0; i < count; i += 500) {
    const batch = texts.slice(i, i + 500).map((content, j) => ({
      content,
      validFrom: CORPUS_START + (i + j) * 60_000,
      layer: 'episodic',
      dedupe: false,
    }));
    now = batch.at(-1)!.validFrom;
    const results = (await host.dispatch(
      'rememberMany',
      { memories: batch },
      { requestId: `corpus-${++seq}`, client: 'bench', local: true },
    )) as Array<{ memory: { id: string } }>;
    ids.push(...results.map((r) => r.memory.id));
  }
  now = corpusNow(count);
  host.store.write((tx) => {
    ids.forEach((id, i) => {
      if (i % 5 === 4) return;
      for (const at of [now - 2 * DAY, now - DAY]) {
        tx.run("INSERT INTO events (at, type, memory_id, agent) VALUES (?, 'read', ?, 'bench')", [at, id]);
        tx.run(
          'UPDATE memory_state SET access_count = access_count + 1, last_accessed_at = max(coalesce(last_accessed_at, 0), ?) WHERE id = ?',
          [at, id],
        );
      }
    });
  });
  await host.close();
}

const VERBS = ['handles', 'validates', 'caches', 'retries', 'serialises', 'logs', 'parses', 'schedules'];
const NOUNS = ['requests', 'invoices', 'sessions', 'tokens', 'uploads', 'reports', 'jobs', 'events'];
const WHY = ['it timed out twice', 'the old path was flaky', 'reviews asked for it', 'load doubled'];

/**
 * Two sentences per memory; the only entity a topic's memories share is their file (and its
 * folder, shared by a few hundred topics): consolidation's clusters are the topics.
 */
function topicTexts(count: number): string[] {
  const random = seededRandom(21);
  const pick = (list: readonly string[]) => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const topic = Math.floor(i / TOPIC_SIZE);
    return (
      `The step in src/topic${topic % 211}/part${topic}.ts ${pick(VERBS)} ${pick(NOUNS)} now because ${pick(WHY)}. ` +
      `Note ${i}: it ${pick(VERBS)} ${pick(NOUNS)} in batches of ${1 + Math.floor(random() * 50)}.`
    );
  });
}
