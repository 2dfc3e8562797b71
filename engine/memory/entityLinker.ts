import { extractEntities } from '../extract/entities';
import type { SqlWriter } from '../store/sqlAccess';
import type { SqlValue } from '../store/statementLog';
import { insertRows } from '../store/heldRows';
import { upsertEntity } from './entityGraph';

/** At most this many of a memory's entities form co-occurrence pairs (k*(k-1)/2 relations). */
const MAX_COOCCURRING = 5;

const RELATIONS_INSERT =
  'INSERT INTO relations (source_id, target_id, type, strength, evidence_count, first_seen_at, last_seen_at)';
/** Built once: a suffix joined on every flush was a new string, hashed in full by each lookup. */
const RELATIONS_UPSERT =
  'ON CONFLICT (source_id, target_id, type) DO UPDATE SET ' +
  'evidence_count = evidence_count + excluded.evidence_count, ' +
  'strength = (evidence_count + excluded.evidence_count) / (evidence_count + excluded.evidence_count + 2.0), ' +
  'last_seen_at = excluded.last_seen_at';

/**
 * Links memories to the entities their text names and records co-occurrence, on every write.
 * This is the hot path of remembering, so entity ids and known aliases are cached, and a memory's
 * links and relations are written with one multi-row statement each instead of one per row.
 *
 * Co-occurrence evidence is added up in memory and written once per transaction by `flush`, so a
 * batch that sees the same pair a hundred times writes it once.
 *
 * The caches hold only what committed transactions wrote: the owner calls `reset()` when a write
 * fails (its rows were rolled back) and after merges or imports that change alias resolution.
 */
export class EntityLinker {
  private readonly idByKey = new Map<string, number>();
  /** Aliases known to be stored, by entity id. */
  private readonly knownAliases = new Map<number, Set<string>>();
  /** Co-occurrences since the last flush: smaller entity id -> larger -> count. */
  private readonly pendingPairs = new Map<number, Map<number, number>>();
  /** Links of memories created since the last `flushLinks`: [memory id, entity id, weight]. */
  private pendingLinks: Array<[string, number, number]> = [];

  reset(): void {
    this.idByKey.clear();
    this.knownAliases.clear();
    this.pendingPairs.clear();
    this.pendingLinks = [];
  }

  /**
   * Writes the links `link(..., fresh)` held back, sorted by entity, a few hundred rows a statement.
   * The caller flushes before its write callback returns (so links never outlive the savepoint of
   * the memories they belong to) and before anything reads or rewrites those memories' links.
   * Measured on a 10 MB store: a third of the cost of one multi-row insert per memory, because
   * sorted rows land together in the (entity, weight) index.
   */
  flushLinks(tx: SqlWriter): void {
    const links = this.pendingLinks;
    if (links.length === 0) return;
    this.pendingLinks = [];
    links.sort((x, y) => x[1] - y[1] || y[2] - x[2]);
    insertRows(tx, 'INSERT INTO memory_entities (memory_id, entity_id, weight)', links);
  }

  /** Replaces a memory's links with those of its new text (an edit or a merged restatement). */
  relink(tx: SqlWriter, memoryId: string, text: string, at: number): { ids: number[]; names: string[] } {
    this.flushLinks(tx);
    tx.run('DELETE FROM memory_entities WHERE memory_id = ?', [memoryId]);
    return this.link(tx, memoryId, text, at);
  }

  /** Writes the co-occurrence evidence gathered since the last flush. Call inside the transaction. */
  flush(tx: SqlWriter, at: number): void {
    const rows: SqlValue[][] = [];
    // Strength grows with evidence and saturates: e / (e + 2), so 1 sighting 0.33, 3 give 0.6.
    for (const [a, partners] of this.pendingPairs)
      for (const [b, count] of partners) rows.push([a, b, 'co-occurs', count / (count + 2), count, at, at]);
    this.pendingPairs.clear();
    insertRows(tx, RELATIONS_INSERT, rows, RELATIONS_UPSERT);
  }

  /**
   * Links `memoryId` to the entities of `text`; returns their ids and names (for the lexical index).
   * `fresh`: the memory was created in this transaction and has no links yet: its links are held
   * until `flushLinks` and then inserted plainly (sql.js measured the upsert form three times slower
   * on a store with the ordered index). Otherwise they are upserted now.
   */
  link(
    tx: SqlWriter,
    memoryId: string,
    text: string,
    at: number,
    fresh = false,
  ): { ids: number[]; names: string[] } {
    const linked = new Map<number, number>();
    const names: string[] = [];
    for (const entity of extractEntities(text)) {
      names.push(entity.name);
      const id = this.resolve(tx, entity.key, entity.name, entity.type, at);
      let known = this.knownAliases.get(id);
      if (!known) this.knownAliases.set(id, (known = new Set<string>()));
      this.noteAlias(tx, id, entity.key, known);
      for (const alias of entity.aliases) this.noteAlias(tx, id, alias.toLowerCase(), known);
      linked.set(id, Math.max(linked.get(id) ?? 0, entity.weight));
    }
    if (linked.size === 0) return { ids: [], names };
    const links = [...linked];
    if (fresh) for (const [id, weight] of links) this.pendingLinks.push([memoryId, id, weight]);
    else {
      this.flushLinks(tx);
      tx.run(
        `INSERT INTO memory_entities (memory_id, entity_id, weight) VALUES ${links.map(() => '(?, ?, ?)').join(', ')} ` +
          'ON CONFLICT (memory_id, entity_id) DO UPDATE SET weight = max(weight, excluded.weight)',
        links.flatMap(([id, weight]) => [memoryId, id, weight]),
      );
    }
    const strongest = links
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_COOCCURRING)
      .map(([id]) => id);
    for (let i = 0; i < strongest.length; i++) {
      for (let j = i + 1; j < strongest.length; j++) {
        const a = Math.min(strongest[i]!, strongest[j]!);
        const b = Math.max(strongest[i]!, strongest[j]!);
        let partners = this.pendingPairs.get(a);
        if (!partners) this.pendingPairs.set(a, (partners = new Map<number, number>()));
        partners.set(b, (partners.get(b) ?? 0) + 1);
      }
    }
    return { ids: links.map(([id]) => id), names };
  }

  private noteAlias(tx: SqlWriter, id: number, alias: string, known: Set<string>): void {
    if (known.has(alias)) return;
    tx.run('INSERT OR IGNORE INTO entity_aliases (alias, entity_id) VALUES (?, ?)', [alias, id]);
    known.add(alias);
  }

  private resolve(tx: SqlWriter, key: string, name: string, type: string, at: number): number {
    const cached = this.idByKey.get(key);
    if (cached !== undefined) return cached;
    const id = upsertEntity(tx, key, name, type, at);
    this.idByKey.set(key, id);
    return id;
  }
}
