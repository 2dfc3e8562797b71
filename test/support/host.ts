import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import type { HostOptions } from '../../engine/api/engineDispatcher';
import type { EmbeddingProvider } from '../../engine/embedding/types';
import type { MethodName, MethodResult } from '../../engine/api/methods';
import { silentLogger } from '../../engine/host';
import { createEmbeddingProvider } from '../../engine/embedding/createEmbeddingProvider';
import { resolveDefaultModelAssets } from '../../engine/embedding/useLiteAssets';
import type { MemoryLimits } from '../../engine/memory/limits';
import { SQL_WASM_PATH, tempDir } from './temp';

/** A controllable clock for tests of time-dependent rules. */
export class TestClock {
  constructor(public now = Date.parse('2026-01-15T10:00:00Z')) {}
  readonly read = () => this.now;
  advance(ms: number): void {
    this.now += ms;
  }
}

export interface TestHost {
  host: EngineDispatcher;
  dbPath: string;
  clock: TestClock;
  call<M extends MethodName>(method: M, params?: Record<string, unknown>): Promise<MethodResult<M>>;
}

let requests = 0;

/** An engine host on a real sql.js database in a temp directory. */
export async function openTestHost(
  options: {
    dbPath?: string;
    clock?: TestClock;
    limits?: Partial<MemoryLimits>;
    embedding?: EmbeddingProvider;
    code?: HostOptions['code'];
    onEmbeddingProgress?: HostOptions['onEmbeddingProgress'];
    lexicalCopy?: HostOptions['lexicalCopy'];
    lifecycleEveryMs?: HostOptions['lifecycleEveryMs'];
    consolidateOnSchedule?: HostOptions['consolidateOnSchedule'];
  } = {},
): Promise<TestHost> {
  const dbPath = options.dbPath ?? path.join(tempDir(), 'memory.db');
  const clock = options.clock ?? new TestClock();
  const host = await EngineDispatcher.open({
    dbPath,
    sqlWasmPath: SQL_WASM_PATH,
    logger: silentLogger,
    clock: clock.read,
    limits: options.limits,
    snapshot: { idleMs: 60_000 },
    embedding: options.embedding ?? null,
    code: options.code,
    onEmbeddingProgress: options.onEmbeddingProgress,
    lexicalCopy: options.lexicalCopy,
    lifecycleEveryMs: options.lifecycleEveryMs,
    consolidateOnSchedule: options.consolidateOnSchedule,
  });
  return {
    host,
    dbPath,
    clock,
    call: async <M extends MethodName>(method: M, params: Record<string, unknown> = {}) =>
      (await host.dispatch(method, params, {
        requestId: `test-${++requests}`,
        client: 'test',
      })) as MethodResult<M>,
  };
}

/** The default embedder (USE-lite in its worker, run from source), as a host would create it. */
export function useLiteProvider(): EmbeddingProvider {
  return createEmbeddingProvider(
    { kind: 'use-lite', assets: resolveDefaultModelAssets(require.resolve) },
    silentLogger,
  );
}
