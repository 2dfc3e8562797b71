import type { EmbeddingProvider } from '../embedding/types';
import { EngramError } from '../errors';
import { redactSecrets } from '../extract/secrets';
import type { Logger } from '../host';
import type { DenseFilter, DenseSearcher } from '../retrieval/denseSearch';
import type { StoreSearch } from '../retrieval/recallSources';
import { documentOf } from '../lexical/lexicalIndex';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import { openVectorIndex } from './openVectorIndex';
import type { VectorIndex, VectorItem } from './types';
import type { WorkerScript } from '../process/workerKit';
import type { MemoryStore } from '../memory/memoryStore';
import { SURPRISE_NEIGHBOURS } from '../memory/novelty';
import type { EmbeddedText } from '../memory/novelty';
import { vectorFromBlob, vectorToBlob } from './vectorBlob';
import type { VectorStaging } from '../memory/writeParticipants';

export interface MemoryVectorsOptions {
  provider: EmbeddingProvider;
  logger: Logger;
  /** Where the HNSW index is saved between runs (a cache: rebuilt from SQLite when stale). */
  indexFile?: string;
  /** The script of the worker that builds HNSW graphs. @default defaultWorkerScripts().vectors */
  worker?: WorkerScript;
  /** Reports background (re-)embedding: `done` of `total` memories for `model`. */
  onProgress?: (progress: EmbeddingProgress) => void;
  /**
   * The store of record ranks vectors and journals the background writes (a PostgreSQL team
   * store: engine/pgStore): each server process sees every process's vectors there, where its
   * own index would learn only its own commits. Then no in-memory index is loaded or kept.
   */
  store?: StoreSearch;
}

export interface EmbeddingProgress {
  model: string;
  done: number;
  total: number;
}

/** Memories embedded per model call and per write transaction during background sync. */
const SYNC_BATCH = 64;
/** Cached query embeddings: agents repeat queries, and the model call dominates dense recall. */
const QUERY_CACHE_SIZE = 256;

/**
 * The dense side of the memory store. Vectors live in SQLite (`memory_vectors`, keyed by document
 * and model: the source of truth); the vector index is a cache over the rows of the current model
 * only, so vectors of two models are never compared. Memories written without a vector (bulk
 * imports, edits, a model change) are embedded in the background by `sync`.
 */
export class MemoryVectors implements DenseSearcher, VectorStaging {
  private pending: VectorItem[] = [];
  private syncing: Promise<void> | undefined;
  private syncAgain = false;
  private closed = false;
  private readonly queryCache = new Map<string, Float32Array>();
  private progress: EmbeddingProgress;

  private constructor(
    private readonly store: MemoryStore,
    private readonly provider: EmbeddingProvider,
    private readonly index: VectorIndex,
    private readonly options: MemoryVectorsOptions,
  ) {
    this.progress = { model: provider.id, done: 0, total: 0 };
  }

  /** Loads the model and the index (from its file when it matches SQLite, else from the rows). */
  static async open(store: MemoryStore, options: MemoryVectorsOptions): Promise<MemoryVectors> {
    const { provider } = options;
    await provider.init();
    const inStore = options.store?.dense !== undefined;
    const rows = inStore
      ? []
      : store.read((r) =>
          r.all<{ doc: number; vector: Uint8Array }>(
            'SELECT doc, vector FROM memory_vectors WHERE model = ?',
            [provider.id],
          ),
        );
    const index = await openVectorIndex({
      dimension: provider.dimension,
      modelId: provider.id,
      file: inStore ? undefined : options.indexFile,
      expectedLabels: rows.map((row) => row.doc),
      logger: options.logger,
      ...(options.worker ? { worker: options.worker } : {}),
    });
    if (index.needsRebuild && rows.length > 0) {
      options.logger.info(`vector index: rebuilding ${rows.length} vectors (${index.rebuildReason})`);
      await index.add(rows.map((row) => ({ label: row.doc, vector: vectorFromBlob(row.vector) })));
    }
    return new MemoryVectors(store, provider, index, options);
  }

  get modelId(): string {
    return this.provider.id;
  }

  /**
   * USE-lite alone is far below BM25 on every benchmark we run (LoCoMo recall@10 0.44 vs 0.64,
   * LongMemEval recall_any@5 0.64 vs 0.83, CoSQA MRR 0.06 vs 0.31), and fused as an equal it lowered
   * hybrid recall: it supports. Other models (ONNX, HTTP) fuse fully.
   */
  get supportOnly(): boolean {
    return this.provider.id.startsWith('use-lite');
  }

  get dimension(): number {
    return this.provider.dimension;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    return this.provider.embed(texts);
  }

  /**
   * A read never waits on the embedder: while background embedding catches up, the model is busy
   * with its batches (a query would wait behind one, seconds on a CPU model), so a query without a
   * cached vector gets no dense hits and recall answers from its other channels.
   */
  async search(
    query: string,
    limit: number,
    filter?: DenseFilter,
  ): Promise<Array<{ memoryId: string; score: number }>> {
    const vector = this.syncing ? this.queryCache.get(query) : await this.embedQuery(query);
    return vector ? this.nearest(vector, limit, filter) : [];
  }

  /** The closest memories to `vector` with their cosine similarity, best first. */
  async nearest(
    vector: Float32Array,
    limit: number,
    filter?: DenseFilter,
  ): Promise<Array<{ memoryId: string; score: number }>> {
    const { store } = this.options;
    if (store?.dense) return store.dense(this.provider.id, vector, limit, filter);
    if (this.index.size === 0) return [];
    const hits = await this.index.search(vector, limit);
    if (hits.length === 0) return [];
    const ids = this.store.read((r) =>
      memoryIdsOf(
        r,
        hits.map((h) => h.label),
      ),
    );
    return hits.flatMap((hit) => {
      const memoryId = ids.get(hit.label);
      return memoryId === undefined ? [] : [{ memoryId, score: hit.score }];
    });
  }

  /**
   * Embeds texts to be remembered and finds their nearest stored memories: async work done before
   * the write transaction (MemoryStore.remember takes the result).
   */
  async embedForWrite(contents: string[]): Promise<EmbeddedText[]> {
    if (contents.length === 0) return [];
    const embedded = await this.embed(contents.map((c) => redactSecrets(c.trim()).text));
    return Promise.all(
      embedded.map(async (vector) => ({
        vector,
        nearest: await this.nearest(vector, SURPRISE_NEIGHBOURS),
      })),
    );
  }

  /**
   * Stores a vector in the caller's write transaction; it enters the index when `committed` runs
   * after the transaction (a rolled-back write never reaches the index). `doc`: the memory's
   * document number when the caller already has it (a memory created in this transaction).
   */
  stage(tx: SqlWriter, memoryId: string, contentHash: string, vector: Float32Array, doc?: number): void {
    if (vector.length !== this.provider.dimension)
      throw new EngramError(
        'INVALID_INPUT',
        `a vector of ${vector.length} dimensions cannot be stored for model ${this.provider.id} (${this.provider.dimension})`,
      );
    const label = doc ?? documentOf(tx, memoryId);
    tx.run('INSERT OR REPLACE INTO memory_vectors (doc, model, content_hash, vector) VALUES (?, ?, ?, ?)', [
      label,
      this.provider.id,
      contentHash,
      vectorToBlob(vector),
    ]);
    this.pending.push({ label, vector });
  }

  committed(): void {
    const items = this.pending;
    this.pending = [];
    if (items.length > 0 && !this.closed && !this.options.store?.dense)
      this.index
        .add(items)
        .catch((error: unknown) => this.options.logger.warn(`vector index: ${String(error)}`));
  }

  rolledBack(): void {
    this.pending = [];
  }

  /** Resolves when no background index build is running. */
  whenIndexed(): Promise<void> {
    return this.index.whenBuilt();
  }

  /** Progress of the background embedding of memories that have no vector of this model yet. */
  status(): EmbeddingProgress & { indexed: number; mode: string; rebuiltBecause: string | null } {
    return {
      ...this.progress,
      indexed: this.index.size,
      mode: this.index.stats().mode,
      rebuiltBecause: this.index.rebuildReason,
    };
  }

  /** Starts (or queues another round of) background embedding; resolves when it is done. */
  sync(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.syncing) {
      this.syncAgain = true;
      return this.syncing;
    }
    this.syncing = this.runSync()
      .catch((error: unknown) => this.options.logger.warn(`background embedding stopped: ${String(error)}`))
      .finally(() => {
        this.syncing = undefined;
        if (this.syncAgain && !this.closed) {
          this.syncAgain = false;
          void this.sync();
        }
      });
    return this.syncing;
  }

  private async runSync(): Promise<void> {
    const model = this.provider.id;
    const total = this.store.read((r) => staleCount(r, model));
    this.progress = { model, done: 0, total };
    if (total > 0) this.options.onProgress?.(this.progress);
    // Where other processes share the store, a round walks the stale memories in document order
    // and claims what it can: those another process holds are that one's, so the round goes on
    // past them (`after`) rather than waiting or embedding them too. A memory made stale again
    // behind the cursor (an edit) is the next round's: the write that did it starts one.
    let after = 0;
    while (!this.closed) {
      const stale = this.store.read((r) => staleBatch(r, model, SYNC_BATCH, { after }));
      if (stale.length === 0) break;
      const claim = await this.options.store?.claimEmbedding?.(
        model,
        stale.map((row) => row.doc),
      );
      if (claim) after = stale[stale.length - 1]!.doc;
      try {
        // Claimed, then caught up: what is still stale of the claim is this process's alone.
        const batch = !claim
          ? stale
          : claim.docs.length === 0
            ? []
            : this.store.read((r) => staleBatch(r, model, SYNC_BATCH, { among: claim.docs }));
        if (batch.length > 0) await this.embedBatch(model, batch);
        this.progress = { model, done: Math.min(total, this.progress.done + batch.length), total };
        this.options.onProgress?.(this.progress);
      } finally {
        await claim?.release();
      }
    }
    if (!this.closed) await this.dropOtherModels(model);
  }

  private async embedBatch(model: string, batch: StaleRow[]): Promise<void> {
    const vectors = await this.provider.embed(batch.map((row) => row.content));
    if (this.closed) return;
    await this.written(() =>
      this.store.write((tx) => {
        for (const [i, row] of batch.entries()) {
          // The memory may have changed while the model ran: only store vectors of current text.
          const current = tx.value<string>(
            'SELECT content_hash FROM memories WHERE id = ? AND superseded_at IS NULL',
            [row.memoryId],
          );
          if (current === row.contentHash)
            this.stage(tx, row.memoryId, row.contentHash, vectors[i]!, row.doc);
        }
      }),
    );
  }

  /**
   * A background write: through the store of record's served path where it has one (a replica
   * writes only inside a served call, so the write is journaled like a client's), else directly.
   */
  private written(fn: () => void): Promise<void> {
    const { store } = this.options;
    if (store?.servedWrite) return store.servedWrite(fn);
    fn();
    return Promise.resolve();
  }

  /** After a model change has been fully re-embedded, the old model's vectors are dead weight. */
  private async dropOtherModels(model: string): Promise<void> {
    const others = this.store.read((r) =>
      r.value<number>('SELECT COUNT(*) FROM memory_vectors WHERE model != ?', [model]),
    );
    if (others)
      await this.written(() =>
        this.store.write((tx) => tx.run('DELETE FROM memory_vectors WHERE model != ?', [model])),
      );
  }

  private async embedQuery(query: string): Promise<Float32Array> {
    const cached = this.queryCache.get(query);
    if (cached) return cached;
    const [vector] = await this.provider.embed([query]);
    if (!vector)
      throw new EngramError('UNAVAILABLE', `the embedding model ${this.provider.id} returned no vector`);
    if (this.queryCache.size >= QUERY_CACHE_SIZE)
      this.queryCache.delete(this.queryCache.keys().next().value!);
    this.queryCache.set(query, vector);
    return vector;
  }

  /** Stops background work, saves the index for the next start, and releases the model. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.syncing;
    try {
      // With the store ranking vectors there is no index to keep (and no file: the "path" is a URL).
      if (this.options.indexFile && !this.options.store?.dense) await this.index.save(this.options.indexFile);
    } catch (error) {
      this.options.logger.warn(`vector index not saved (it is rebuilt on next start): ${String(error)}`);
    }
    await this.index.close();
    await this.provider.dispose();
  }
}

/** Current, not forgotten memories whose vector of `model` is missing or of older text. */
const STALE = `FROM memories m JOIN memory_docs d ON d.memory_id = m.id
  LEFT JOIN memory_vectors v ON v.doc = d.doc AND v.model = ?
  WHERE m.superseded_at IS NULL AND m.status != 'forgotten'
    AND (v.doc IS NULL OR v.content_hash != m.content_hash)`;

function staleCount(r: SqlReader, model: string): number {
  return r.value<number>(`SELECT COUNT(*) ${STALE}`, [model]) ?? 0;
}

interface StaleRow {
  doc: number;
  memoryId: string;
  content: string;
  contentHash: string;
}

/** The first `limit` stale memories, past document `after`, or among `among` (the ones this process claimed). */
function staleBatch(
  r: SqlReader,
  model: string,
  limit: number,
  where: { after?: number; among?: number[] } = {},
): StaleRow[] {
  const { after = 0, among } = where;
  const amongSql = among ? ` AND d.doc IN (${among.map(() => '?').join(',')})` : '';
  return r.all(
    `SELECT d.doc AS doc, m.id AS memoryId, m.content AS content, m.content_hash AS contentHash ${STALE}
     AND d.doc > ?${amongSql} ORDER BY d.doc LIMIT ?`,
    [model, after, ...(among ?? []), limit],
  );
}

function memoryIdsOf(r: SqlReader, docs: number[]): Map<number, string> {
  const rows = r.all<{ doc: number; memory_id: string }>(
    `SELECT doc, memory_id FROM memory_docs WHERE doc IN (${docs.map(() => '?').join(',')})`,
    docs,
  );
  return new Map(rows.map((row) => [row.doc, row.memory_id]));
}
