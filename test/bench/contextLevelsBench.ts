/**
 * What the graduated block (contextLevels, engine/retrieval/contextLevels.ts) costs against the
 * plain context block on the same store and queries, in the same run: N synthetic memories
 * (entities in every one, so the peer cards have busy entities to summarise), 5 queries x 3.
 *
 * Usage: node --import tsx test/bench/contextLevelsBench.ts [MEMORIES, default 20000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import { syntheticMemories } from './syntheticMemories';
import { median, round, runStamp } from './stats';

const QUERIES = [
  'postgres migration',
  'why redis',
  'eslint config in src',
  'who owns billing',
  'docker build fails',
];

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 20_000);
  const root = mkdtempSync(path.join(os.tmpdir(), 'engram-levels-bench-'));
  const host = await EngineDispatcher.open({
    dbPath: path.join(root, 'levels.db'),
    sqlWasmPath: require.resolve('sql.js/dist/sql-wasm.wasm'),
    logger: silentLogger,
    clock: () => Date.now(),
    snapshot: { idleMs: 3_600_000, maxJournalBytes: 1 << 30 },
    embedding: null,
  });
  let seq = 0;
  const call = (method: string, params: Record<string, unknown>) =>
    host.dispatch(method, params, { requestId: `lv-${++seq}`, client: 'bench' });
  try {
    const texts = syntheticMemories(count);
    for (let i = 0; i < texts.length; i += 1000)
      await call('rememberMany', {
        memories: texts.slice(i, i + 1000).map((content) => ({ content, dedupe: false })),
      });
    const times = { context: [] as number[], contextLevels: [] as number[] };
    for (let pass = 0; pass < 3; pass++)
      for (const query of QUERIES)
        for (const method of ['context', 'contextLevels'] as const) {
          const started = performance.now();
          await call(method, { query, readOnly: true });
          times[method].push(performance.now() - started);
        }
    console.log(
      JSON.stringify({
        ...runStamp(),
        memories: count,
        medianMs: {
          context: round(median(times.context), 1),
          contextLevels: round(median(times.contextLevels), 1),
        },
      }),
    );
  } finally {
    await host.close();
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
