/**
 * npm run bench:recall's companion for the write path: what keeping the in-memory lexical index
 * current costs a batched write. Alternates, on one database, batches written before any recall
 * (no copy to keep current) and after one (every indexed document is reported to the copy, which
 * re-reads it at the next recall). Usage: node --import tsx test/bench/recall/writeHookBench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { EngineDispatcher } from '../../../engine/api/engineDispatcher';
import { silentLogger } from '../../../engine/host';
import type { RememberManyResult } from '../../../engine/memory/types';
import { writtenOrReported } from '../batchRejections';
import { median, round } from '../stats';
import { syntheticMemories } from '../syntheticMemories';

const sqlWasmPath = createRequire(__filename).resolve('sql.js/dist/sql-wasm.wasm');
const ROUNDS = 5;
const BATCH = 500;
const PER_ROUND = 1000;

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-writehook-'));
  const texts = syntheticMemories(ROUNDS * PER_ROUND * 2, 11);
  const times: Record<'withoutCopy' | 'withCopy' | 'refresh', number[]> = {
    withoutCopy: [],
    withCopy: [],
    refresh: [],
  };
  let next = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const withCopy of [false, true]) {
      const host = await EngineDispatcher.open({
        dbPath: path.join(root, `r${round}-${withCopy}.db`),
        sqlWasmPath,
        logger: silentLogger,
        clock: Date.now,
        embedding: null,
      });
      let requests = 0;
      const call = (method: string, params: Record<string, unknown>) =>
        host.dispatch(method, params, { requestId: `w${++requests}`, client: 'bench' });
      await call('remember', { content: 'a first memory so that recall has an index to build' });
      if (withCopy) await call('recall', { query: 'first memory', k: 10 });
      const started = performance.now();
      for (let i = 0; i < PER_ROUND; i += BATCH) {
        const batch = texts.slice(next, next + BATCH).map((content) => ({ content }));
        next += BATCH;
        writtenOrReported(
          (await call('rememberMany', { memories: batch })) as RememberManyResult[],
          'write hook',
        );
      }
      times[withCopy ? 'withCopy' : 'withoutCopy'].push(PER_ROUND / ((performance.now() - started) / 1000));
      if (withCopy) {
        const refresh = performance.now();
        await call('recall', { query: 'eslint config', k: 10 });
        times.refresh.push(performance.now() - refresh);
      }
      await host.close();
    }
  }
  rmSync(root, { recursive: true, force: true });
  process.stdout.write(
    `batched 1k (writes/s, median of ${ROUNDS}): without an index copy ${round(median(times.withoutCopy), 0)}, ` +
      `with one kept current ${round(median(times.withCopy), 0)}; ` +
      `the next recall (re-reads the 1k new rows) ${round(median(times.refresh))} ms\n`,
  );
}

void main();
