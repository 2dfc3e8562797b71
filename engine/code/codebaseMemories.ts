import { upsertEntity } from '../memory/entityGraph';
import type { MemoryStore } from '../memory/memoryStore';
import type { RememberInput } from '../memory/types';
import { insertRows } from '../store/heldRows';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import type { SqlValue } from '../store/statementLog';
import type { DerivedBatch } from '../memory/derivedBatch';
import { readFileIndex } from './codeIndexReader';
import { deriveFileMemories } from './memoryDrafts';
import type { MemoryDraft } from './memoryDrafts';
import { DERIVED_WRITE } from '../store/durableDatabase';

export interface CodebaseMemorySync {
  /** Files whose memories were derived again. */
  files: number;
  added: number;
  unchanged: number;
  /** Memories of code that is gone (deleted or renamed files, removed symbols), now invalid. */
  invalidated: number;
  /** Drafts the store refused (over a limit the host set): not written, the file's others are. */
  rejected: number;
  /** Tokens of the current codebase memories (the numerator of the token ratio). */
  memoryTokens: number;
}

/**
 * One write transaction derives files until this much time has passed (each file whole, with its
 * sync row), then yields: in the extension host a long run of writes blocks the editor, and a fixed
 * number of files is not a fixed time (one file can hold a hundred symbols). Measured in the host:
 * ten files per transaction blocked its main thread for 100-300 ms at a time.
 */
const WRITE_BUDGET_MS = 12;
const SCANNER = { agent: 'engram-scanner', trust: 'ingest' as const };

/**
 * Keeps the codebase layer equal to the code index. Every file whose indexed content differs from
 * what its memories were derived from gets its drafts written (a draft's key is its conflict key,
 * so a changed summary supersedes the old one and an identical one is `unchanged`); memories whose
 * key no longer has a draft, or whose file left the index, are invalidated with `valid_to` set.
 * Driven by the index rather than by one scan's change list, so a scan killed between indexing
 * and deriving is caught up by the next one.
 */
export async function syncCodebaseMemories(
  store: MemoryStore,
  renamed: ReadonlyArray<{ from: string; to: string }>,
  /** Counts the tokens of all current codebase memories when given (a full report; skipped on live rescans). */
  countTokens?: (text: string) => number,
  /**
   * How memories of files gone from the index are found. 'memories' reads every current codebase
   * memory and also catches ones no sync row accounts for. 'synced' looks only at the paths
   * code_memory_sync records: a file's memories are written with its sync row in one transaction,
   * so that finds every orphan the scanner made, with an anti-join over files instead of a pass
   * over every memory (about half of a one-file rescan on a 7,500-file repository).
   * @default 'memories'
   */
  orphans: 'memories' | 'synced' = 'memories',
  /** Counts of files already derived during the scan (LiveDerivation), carried into the result. */
  derivedDuringScan?: CodebaseMemorySync,
): Promise<CodebaseMemorySync> {
  const result: CodebaseMemorySync = { ...(derivedDuringScan ?? emptySync()) };
  const renamedTo = new Map(renamed.map((r) => [r.from, r.to]));
  // Not on the turn of the scan's closing transaction (deletions, import re-resolution).
  await nextTurn();
  await deriveFiles(store, store.read(staleFiles), result);
  // The orphan pass (a read of every codebase memory after a full scan) and what the caller does
  // next each get a turn of their own, not the tail of the last derive transaction's.
  await nextTurn();
  store.write((tx) => {
    for (const memory of orphans === 'memories' ? orphanedMemories(tx) : orphansOfSyncedPaths(tx)) {
      const movedTo = renamedTo.get(memory.path);
      store.invalidate(
        memory.id,
        movedTo ? `${memory.path} was renamed to ${movedTo}` : `${memory.path} is gone`,
        SCANNER,
      );
      result.invalidated++;
    }
  }, DERIVED_WRITE);
  if (countTokens)
    result.memoryTokens = store
      .read(currentCodebaseContents)
      .reduce((sum, text) => sum + countTokens(text), 0);
  await nextTurn();
  return result;
}

export function emptySync(): CodebaseMemorySync {
  return { files: 0, added: 0, unchanged: 0, invalidated: 0, rejected: 0, memoryTokens: 0 };
}

/**
 * Derives the memories of `files` from what the index holds for them now, in write
 * transactions of about WRITE_BUDGET_MS each with a turn of the event loop between them.
 */
export async function deriveFiles(
  store: MemoryStore,
  files: ReadonlyArray<{ path: string }>,
  out: CodebaseMemorySync,
  /** Checked between transactions: true leaves the rest underived (stale, for the next sync). */
  stopped: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  while (next < files.length) {
    if (next > 0) await nextTurn();
    if (stopped()) return;
    const began = performance.now();
    store.writeDerived(
      SCANNER,
      (batch, tx) => {
        // Files are read and drafted for READ_SHARE of the budget, then written as one batch, so
        // the transaction stays near the budget while writing costs about what reading did.
        const derivations: FileDerivation[] = [];
        // A path met twice is left to the next transaction: its second reading must see the first's writes.
        const paths = new Set<string>();
        do {
          paths.add(files[next]!.path);
          derivations.push(...readDerivation(tx, files[next++]!));
        } while (
          next < files.length &&
          !paths.has(files[next]!.path) &&
          performance.now() - began < WRITE_BUDGET_MS * READ_SHARE
        );
        writeDerivations(store, tx, batch, derivations, out);
      },
      DERIVED_WRITE,
    );
  }
}

/** Of a transaction's budget, the part spent reading files' indexes and drafting their memories. */
const READ_SHARE = 0.5;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** One file's drafts, the memories it no longer derives, and the index hash they come from. */
interface FileDerivation {
  path: string;
  contentHash: string;
  drafts: MemoryDraft[];
  dropped: Array<{ id: string; key: string }>;
}

function readDerivation(reader: SqlReader, file: { path: string }): FileDerivation[] {
  const index = readFileIndex(reader, file.path);
  if (!index) return [];
  const drafts = deriveFileMemories(index);
  const keys = new Set(drafts.map((d) => d.key));
  const dropped = familyOf(reader, file.path).filter((old) => !keys.has(old.key));
  return [{ path: file.path, contentHash: index.contentHash, drafts, dropped }];
}

/**
 * Writes the files' memories in order, each file as a group of the batch: what it no longer
 * derives invalidated first, then its drafts, then their entities and relations. Entities are
 * created in the order the remember path creates them; the link and relation rows are held and
 * inserted after the batch's own rows (they upsert over the links of the memories' text).
 */
function writeDerivations(
  store: MemoryStore,
  tx: SqlWriter,
  batch: DerivedBatch,
  derivations: readonly FileDerivation[],
  out: CodebaseMemorySync,
): void {
  const links = emptyDraftLinks();
  const now = store.clock();
  batch.remember(
    derivations.map((file) => ({
      inputs: file.drafts.map(asMemory),
      ...(file.dropped.length > 0 ? { before: () => invalidateDropped(store, file, out) } : {}),
      after: (results) => {
        for (const [i, draft] of file.drafts.entries()) {
          const memory = results[i]!;
          if (memory.outcome === 'rejected') out.rejected++;
          else if (memory.outcome === 'unchanged') out.unchanged++;
          else {
            out.added++;
            holdDraftLinks(tx, memory.memory.id, draft, now, links);
          }
        }
        out.files++;
      },
    })),
  );
  batch.flush();
  insertDraftLinks(tx, links);
  // The hash the drafts came from: the index's, which a caller's list may predate.
  insertRows(
    tx,
    'INSERT OR REPLACE INTO code_memory_sync (path, content_hash)',
    derivations.map((file) => [file.path, file.contentHash]),
  );
}

function invalidateDropped(store: MemoryStore, file: FileDerivation, out: CodebaseMemorySync): void {
  for (const old of file.dropped) {
    store.invalidate(old.id, `${old.key.replace(/^code:[a-z]+:/, '')} is no longer in the code`, SCANNER);
    out.invalidated++;
  }
}

/** A draft as the memory the scanner remembers. */
export function asMemory(draft: MemoryDraft): RememberInput {
  return {
    content: draft.content,
    layer: 'codebase',
    kind: draft.kind,
    tags: draft.tags,
    conflictKey: draft.key,
    source: {
      file: draft.source.file,
      ...(draft.source.startLine !== undefined ? { start: draft.source.startLine } : {}),
      ...(draft.source.endLine !== undefined ? { end: draft.source.endLine } : {}),
    },
  };
}

/** Link and relation rows of drafts, held for `insertDraftLinks`. */
interface DraftLinks {
  links: SqlValue[][];
  relations: SqlValue[][];
}

function emptyDraftLinks(): DraftLinks {
  return { links: [], relations: [] };
}

/**
 * The draft's entities linked to its memory, and its typed relations (DEFINES, IMPORTS,
 * DEPENDS_ON): the entities are found or created now (in order, as their ids are given), the rows
 * are held in `out`.
 */
function holdDraftLinks(
  tx: SqlWriter,
  memoryId: string,
  draft: MemoryDraft,
  now: number,
  out: DraftLinks,
): void {
  const ids = new Map<string, number>();
  const entity = (name: string, type: string) => {
    let id = ids.get(name);
    if (id === undefined) {
      id = upsertEntity(tx, name.toLowerCase(), name, type, now);
      ids.set(name, id);
    }
    return id;
  };
  for (const e of draft.entities) out.links.push([memoryId, entity(e.name, e.type), 1]);
  const typeOf = new Map(draft.entities.map((e) => [e.name, e.type]));
  for (const r of draft.relations)
    out.relations.push([
      entity(r.from, typeOf.get(r.from) ?? 'file'),
      entity(r.to, typeOf.get(r.to) ?? 'file'),
      r.type,
      1,
      1,
      now,
      now,
    ]);
}

/** Upserts the held rows: a link the memory's text already made gets weight 1. */
function insertDraftLinks(tx: SqlWriter, held: DraftLinks): void {
  insertRows(
    tx,
    'INSERT INTO memory_entities (memory_id, entity_id, weight)',
    held.links,
    'ON CONFLICT (memory_id, entity_id) DO UPDATE SET weight = 1',
  );
  insertRows(
    tx,
    'INSERT INTO relations (source_id, target_id, type, strength, evidence_count, first_seen_at, last_seen_at)',
    held.relations,
    'ON CONFLICT (source_id, target_id, type) DO UPDATE SET last_seen_at = excluded.last_seen_at',
  );
}

function staleFiles(r: SqlReader): Array<{ path: string; hash: string }> {
  return r.all(
    `SELECT f.path AS path, f.content_hash AS hash FROM code_files f
     LEFT JOIN code_memory_sync s ON s.path = f.path
     WHERE s.content_hash IS NOT f.content_hash ORDER BY f.path`,
  );
}

const FAMILY = `SELECT id, conflict_key AS key FROM memories
  WHERE superseded_at IS NULL AND status = 'active' AND layer = 'codebase' AND conflict_key IS NOT NULL`;

/**
 * FAMILY's conditions, looked up through the conflict-key index: two lookups, since with an OR of
 * them SQLite picked the (layer, status) index and read every codebase memory for each file, which
 * made a full sync quadratic (~40 ms per file at a few thousand memories, in the extension host's
 * thread). The unary `+` keeps layer and status from being used as index terms. Rowid order, as
 * the layer index gave.
 */
const FAMILY_OF = `SELECT id, conflict_key AS key, rowid AS r FROM memories
  WHERE superseded_at IS NULL AND conflict_key IN (?, ?) AND +status = 'active' AND +layer = 'codebase'
  UNION ALL
  SELECT id, conflict_key AS key, rowid AS r FROM memories
  WHERE superseded_at IS NULL AND conflict_key >= ? AND conflict_key < ? AND +status = 'active' AND +layer = 'codebase'
  ORDER BY r`;

/** The current codebase memories derived from one file, by their keys. */
function familyOf(r: SqlReader, path: string): Array<{ id: string; key: string }> {
  // Symbol keys are `code:symbol:<path>#<name>`: a range scan on the conflict-key index ('$' follows '#').
  return r
    .all<{ id: string; key: string }>(FAMILY_OF, [
      `code:file:${path}`,
      `code:config:${path}`,
      `code:symbol:${path}#`,
      `code:symbol:${path}$`,
    ])
    .map(({ id, key }) => ({ id, key }));
}

/** Codebase memories whose file is no longer in the index. */
function orphanedMemories(tx: SqlWriter): Array<{ id: string; path: string }> {
  const indexed = new Set(tx.all<{ path: string }>('SELECT path FROM code_files').map((f) => f.path));
  const orphans = tx
    .all<{ id: string; key: string }>(`${FAMILY} AND conflict_key LIKE 'code:%'`)
    .map((m) => ({ id: m.id, path: pathOfKey(m.key) }))
    .filter((m): m is { id: string; path: string } => m.path !== undefined && !indexed.has(m.path));
  const gone = [...new Set(orphans.map((o) => o.path))];
  for (const path of gone) tx.run('DELETE FROM code_memory_sync WHERE path = ?', [path]);
  return orphans;
}

/** The memories of paths whose memories were derived (a sync row) but whose file left the index. */
function orphansOfSyncedPaths(tx: SqlWriter): Array<{ id: string; path: string }> {
  const gone = tx
    .all<{ path: string }>(
      'SELECT s.path FROM code_memory_sync s LEFT JOIN code_files f ON f.path = s.path WHERE f.id IS NULL',
    )
    .map((row) => row.path);
  const orphans = gone.flatMap((path) => familyOf(tx, path).map((m) => ({ id: m.id, path })));
  for (const path of gone) tx.run('DELETE FROM code_memory_sync WHERE path = ?', [path]);
  return orphans;
}

/** `code:file:src/a.ts`, `code:config:package.json`, `code:symbol:src/a.ts#Name` -> the path. */
export function pathOfKey(key: string): string | undefined {
  const match = /^code:(?:file|config|symbol):(.+?)(?:#[^#]*)?$/.exec(key);
  return match?.[1];
}

function currentCodebaseContents(r: SqlReader): string[] {
  return r
    .all<{ content: string }>(
      "SELECT content FROM memories WHERE superseded_at IS NULL AND status = 'active' AND layer = 'codebase'",
    )
    .map((m) => m.content);
}
