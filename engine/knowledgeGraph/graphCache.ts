import type { SqlReader } from '../store/sqlAccess';
import { allRelations, entitiesWithIds, readAllEntities } from './graphReads';
import type { KgEntitiesById } from './graphReads';
import type { KgEntity, KgGraph, KgRelation } from './graphTypes';

/**
 * The compat graph's entities as last read, kept between calls so that a whole-graph read after a
 * write reads again only what the write touched. An agent adds an observation, then reads the
 * graph: at 10k entities stepping ~30k rows through sql.js was a third of the bridge's time per
 * read, and the graph is the same but for one entity (docs/benchmarks.md, issue 16).
 *
 * Kept per store and valid for one commit number (`DurableDatabase.lastSeq`): the knowledge-graph
 * methods report each of their writes (`noteWrite`) with the commit numbers around it, so the
 * cache follows its own writes; any other commit (an import, Engram's own memory writes) drops
 * everything, and the next read reads the whole graph as before. Entities are only ever dropped,
 * never edited in place, and a write that fails drops everything.
 *
 * The graph it returns shares its entity objects with the next calls: callers only serialise it.
 */

/** What a knowledge-graph write may have changed. */
export interface KgChange {
  /** Entities created: new rows after every existing one (rowids only grow while none is deleted). */
  created?: boolean;
  /** Names (as stored) of entities whose observations changed: every entity of that name is read again. */
  names?: readonly string[];
  /** Relations created or deleted. */
  relations?: boolean;
  /** Entities deleted: everything is read again. */
  deleted?: boolean;
}

/** Above this many missing entities the whole graph is read in one pass, not entity by entity. */
const REREAD_ALL = 200;

export class KnowledgeGraphCache {
  private seq = Number.NaN;
  /** A write was noted at `seq`: the next read also accepts `seq + 1`, its commit. */
  private writing = false;
  /** Entity ids in creation order; undefined until read. */
  private order: number[] | undefined;
  /** Entities created since `order` was read: ids above its last are fetched at the next read. */
  private created = false;
  private readonly entities = new Map<number, KgEntity>();
  private relations: KgRelation[] | undefined;

  /** The whole graph at commit `seq`, reading only what is not kept. */
  read(reader: SqlReader, seq: number): KgGraph {
    if (seq !== this.seq && !(this.writing && seq === this.seq + 1)) this.reset(seq);
    this.seq = seq;
    this.writing = false;
    if (this.order === undefined) {
      const all = readAllEntities(reader);
      this.order = all.ids;
      this.keep(all);
    }
    if (this.created) {
      const last = this.order[this.order.length - 1] ?? 0;
      for (const { id } of reader.all<{ id: number }>('SELECT id FROM kg_entities WHERE id > ? ORDER BY id', [
        last,
      ]))
        this.order.push(id);
      this.created = false;
    }
    const missing = this.order.filter((id) => !this.entities.has(id));
    const found = missing.length > 0 && missing.length <= REREAD_ALL && entitiesWithIds(reader, missing);
    // Many missing, or one gone that no reported write deleted: read the whole graph.
    if (missing.length > REREAD_ALL || (found && found.ids.length < missing.length)) {
      this.reset(seq);
      return this.read(reader, seq);
    }
    if (found) this.keep(found);
    this.relations ??= allRelations(reader);
    return { entities: this.order.map((id) => this.entities.get(id)!), relations: this.relations };
  }

  /**
   * After a knowledge-graph write that began at commit `before` and did not fail: drops what it
   * may have changed. Committed on its own, the store now stands at `after`; inside the
   * dispatcher's transaction (`after === before`) it commits later as `before + 1`, so the next
   * read or write also accepts that number. Any other number drops everything. (Should the
   * dispatcher's transaction fail after this write and someone else's commit follow before the
   * next read, that commit would pass for this one: the dispatcher fails only with the store.)
   */
  noteWrite(before: number, after: number, change: KgChange): void {
    const current = this.seq === before || (this.writing && before === this.seq + 1);
    // A commit past `before + 1` has someone else's in between (a replica replaying a journal).
    if (!current || change.deleted || after > before + 1) {
      this.forget();
      return;
    }
    this.seq = after;
    this.writing = after === before;
    if (change.created) this.created = true;
    if (change.relations) this.relations = undefined;
    if (change.names?.length) {
      const names = new Set(change.names);
      for (const [id, entity] of this.entities) if (names.has(entity.name)) this.entities.delete(id);
    }
  }

  /** Drops everything: the next read reads the whole graph. */
  forget(): void {
    this.reset(Number.NaN);
  }

  private keep({ ids, entities }: KgEntitiesById): void {
    // An array grown by push has room for 17 items; a copy has room for what it holds (at 10k
    // entities of two observations, ~1 MB less kept).
    ids.forEach((id, i) => {
      const { name, entityType, observations } = entities[i]!;
      this.entities.set(id, { name, entityType, observations: observations.slice() });
    });
  }

  private reset(seq: number): void {
    this.seq = seq;
    this.writing = false;
    this.order = undefined;
    this.created = false;
    this.entities.clear();
    this.relations = undefined;
  }
}

const caches = new WeakMap<object, KnowledgeGraphCache>();

/** The cache of one store (a MemoryStore: one per open database). */
export function knowledgeGraphCache(store: object): KnowledgeGraphCache {
  let cache = caches.get(store);
  if (!cache) {
    cache = new KnowledgeGraphCache();
    caches.set(store, cache);
  }
  return cache;
}
