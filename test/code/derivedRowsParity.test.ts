import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { readFileIndex } from '../../engine/code/codeIndexReader';
import { asMemory, syncCodebaseMemories } from '../../engine/code/codebaseMemories';
import { deriveFileMemories } from '../../engine/code/memoryDrafts';
import type { MemoryDraft } from '../../engine/code/memoryDrafts';
import { scanWorkspace } from '../../engine/code/scanWorkspace';
import { upsertEntity } from '../../engine/memory/entityGraph';
import type { MemoryStore } from '../../engine/memory/memoryStore';
import { DERIVED_WRITE } from '../../engine/store/durableDatabase';
import type { SqlReader, SqlWriter } from '../../engine/store/sqlAccess';
import { openTestHost } from '../support/host';
import { grammarsDirectory, workspaceWith, writeFiles } from './codeWorkspace';

// A token the secret scanner knows, split so this file holds none.
const TOKEN = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const SCANNER = { agent: 'engram-scanner', trust: 'ingest' as const };

const FILES = {
  'src/rateLimiter.ts': `/** Token-bucket rate limiting for the public API. */
export class RateLimiter {
  constructor(private readonly perMinute: number) {}
  /** True when the caller may proceed. */
  allow(key: string): boolean {
    return key.length < this.perMinute;
  }
}
export function windowOf(limit: number): number {
  return limit * 60;
}
`,
  'src/server.ts': `import { RateLimiter } from './rateLimiter';
/** Starts the HTTP server on \`port\`. */
export function startServer(port: number): void {
  console.log(port, new RateLimiter(60).allow('x'));
}
`,
  'src/client.ts': `export function callApi(path: string, token = '${TOKEN}'): string {
  return path + token;
}
`,
  'src/old.ts': `export const retired = 1;\n`,
  'tools/report.py': `"""Writes the weekly report."""\ndef write_report(rows):\n    return len(rows)\n`,
  'package.json': JSON.stringify({ name: 'demo', dependencies: { express: '4.19.2' } }),
};

/** Edits: one body only (same drafts), one doc (superseded), a symbol gone, a file gone, a file new. */
const EDITS = {
  'src/rateLimiter.ts': FILES['src/rateLimiter.ts']
    .replace('key.length < this.perMinute', 'key.length <= this.perMinute')
    .replace(/export function windowOf[\s\S]*$/, ''),
  'src/server.ts': FILES['src/server.ts'].replace('the HTTP server', 'the HTTPS server'),
  'src/extra.ts': `export function extra(): number {\n  return 2;\n}\n`,
};

/** What the scanner did before the batch: `rememberMany` and one link statement per row, per file. */
async function rememberPathDerive(store: MemoryStore): Promise<void> {
  const stale = store.read((r) =>
    r.all<{ path: string }>(
      `SELECT f.path FROM code_files f LEFT JOIN code_memory_sync s ON s.path = f.path
       WHERE s.content_hash IS NOT f.content_hash ORDER BY f.path`,
    ),
  );
  for (const file of stale)
    store.write((tx) => {
      const index = readFileIndex(tx, file.path)!;
      const drafts = deriveFileMemories(index);
      const keys = new Set(drafts.map((d) => d.key));
      for (const old of familyOf(tx, file.path))
        if (!keys.has(old.key))
          store.invalidate(
            old.id,
            `${old.key.replace(/^code:[a-z]+:/, '')} is no longer in the code`,
            SCANNER,
          );
      const written = store.rememberMany(drafts.map(asMemory), SCANNER);
      for (const [i, draft] of drafts.entries()) {
        const memory = written[i]!;
        if (memory.outcome !== 'rejected' && memory.outcome !== 'unchanged')
          linkDraft(tx, memory.memory.id, draft, store.clock());
      }
      tx.run('INSERT OR REPLACE INTO code_memory_sync (path, content_hash) VALUES (?, ?)', [
        file.path,
        index.contentHash,
      ]);
    }, DERIVED_WRITE);
  await syncCodebaseMemories(store, []);
}

function familyOf(r: SqlReader, file: string): Array<{ id: string; key: string }> {
  return r.all(
    `SELECT id, conflict_key AS key FROM memories WHERE superseded_at IS NULL AND status = 'active'
     AND layer = 'codebase' AND (conflict_key IN (?, ?) OR (conflict_key >= ? AND conflict_key < ?)) ORDER BY rowid`,
    [`code:file:${file}`, `code:config:${file}`, `code:symbol:${file}#`, `code:symbol:${file}$`],
  );
}

function linkDraft(tx: SqlWriter, memoryId: string, draft: MemoryDraft, now: number): void {
  const ids = new Map<string, number>();
  const entity = (name: string, type: string) => {
    if (!ids.has(name)) ids.set(name, upsertEntity(tx, name.toLowerCase(), name, type, now));
    return ids.get(name)!;
  };
  for (const e of draft.entities)
    tx.run(
      'INSERT INTO memory_entities (memory_id, entity_id, weight) VALUES (?, ?, 1) ON CONFLICT (memory_id, entity_id) DO UPDATE SET weight = 1',
      [memoryId, entity(e.name, e.type)],
    );
  const typeOf = new Map(draft.entities.map((e) => [e.name, e.type]));
  for (const r of draft.relations)
    tx.run(
      `INSERT INTO relations (source_id, target_id, type, strength, evidence_count, first_seen_at, last_seen_at)
       VALUES (?, ?, ?, 1, 1, ?, ?) ON CONFLICT (source_id, target_id, type) DO UPDATE SET last_seen_at = excluded.last_seen_at`,
      [
        entity(r.from, typeOf.get(r.from) ?? 'file'),
        entity(r.to, typeOf.get(r.to) ?? 'file'),
        r.type,
        now,
        now,
      ],
    );
}

/**
 * Every row the derivation writes, memory ids replaced by their conflict keys (ids are random),
 * in a stable order. Entity ids, document numbers and event order are kept: they must match too.
 */
function storedRows(store: MemoryStore): Record<string, unknown[]> {
  return store.read((r) => {
    const keyOf = new Map(
      r
        .all<{ id: string; key: string }>('SELECT DISTINCT id, conflict_key AS key FROM memories')
        .map((m) => [m.id, m.key]),
    );
    const named = (rows: Array<Record<string, unknown>>) =>
      rows.map((row) => {
        const out: Record<string, unknown> = { ...row };
        for (const column of ['id', 'memory_id', 'superseded_by'])
          if (typeof out[column] === 'string') out[column] = keyOf.get(out[column]);
        if (typeof out.data === 'string')
          out.data = out.data.replace(/m_[0-9a-z]{20}/g, (id) => keyOf.get(id)!);
        return out;
      });
    const sorted = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();
    return {
      memories: sorted(named(r.all('SELECT * FROM memories'))),
      state: sorted(named(r.all('SELECT * FROM memory_state'))),
      docs: sorted(named(r.all('SELECT * FROM memory_docs'))),
      fts: r.all('SELECT docid, content, context, tags, entities FROM memory_fts ORDER BY docid'),
      events: named(r.all('SELECT * FROM events WHERE memory_id IS NOT NULL ORDER BY seq')),
      entities: r.all('SELECT * FROM entities ORDER BY id'),
      aliases: r.all('SELECT * FROM entity_aliases ORDER BY alias, entity_id'),
      links: sorted(named(r.all('SELECT * FROM memory_entities'))),
      relations: r.all('SELECT * FROM relations ORDER BY source_id, target_id, type'),
      sync: r.all('SELECT * FROM code_memory_sync ORDER BY path'),
    };
  });
}

describe('derived codebase memories', () => {
  it('store the same rows as the remember path: memories, full-text rows, entities, links, relations, events', async () => {
    const root = workspaceWith(FILES);
    const lean = await openTestHost();
    const reference = await openTestHost();
    after(() => Promise.all([lean.host.close(), reference.host.close()]));
    const scan = async (derive: (store: MemoryStore) => Promise<void>, store: MemoryStore) => {
      await scanWorkspace({
        store: store.db,
        root,
        grammarsDirectory: grammarsDirectory(),
        runner: 'inline',
      });
      await derive(store);
    };
    const batched = async (store: MemoryStore) => void (await syncCodebaseMemories(store, []));

    for (const round of ['cold scan', 'rescan after edits']) {
      if (round !== 'cold scan') {
        writeFiles(root, EDITS);
        rmSync(path.join(root, 'src/old.ts'));
      }
      await scan(batched, lean.host.store);
      await scan(rememberPathDerive, reference.host.store);
      const expected = storedRows(reference.host.store);
      assert.ok(expected.memories!.length >= 6, `${round}: ${expected.memories!.length} memories`);
      assert.deepEqual(storedRows(lean.host.store), expected, round);
    }
    const rows = storedRows(lean.host.store);
    assert.ok(JSON.stringify(rows.memories).includes('[REDACTED:'), 'a secret in a signature is redacted');
    const types = new Set(rows.events!.map((e) => (e as { type: string }).type));
    // The paths besides a plain insert were taken: a kept draft, a changed one, a dropped one.
    for (const type of ['duplicate', 'supersede', 'invalidate']) assert.ok(types.has(type), type);
  });
});
