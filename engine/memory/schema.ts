import { indexMissing } from '../lexical/lexicalIndex';
import { codeIndexMigration } from '../code/schema';
import { driftMigration, historyAnswersMigration } from '../drift/schema';
import { knowledgeGraphMigration } from '../knowledgeGraph/schema';
import { captureMigration } from '../capture/schema';
import { teamMigration } from '../team/schema';
import { commitLinkMigration } from '../capture/link/linkSchema';
import { accessDailyMigration } from '../lifecycle/accessDailySchema';
import type { Migration } from '../store/migrate';

/**
 * The schema, as numbered migrations. Never edit a released migration: add a new one. Each runs in
 * its own transaction and is journaled like any write, so recovery replays schema changes too.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'bitemporal memories, annotations, usage counters, event ledger',
    up(tx) {
      tx.run(`
        CREATE TABLE memories (
          rowid INTEGER PRIMARY KEY,
          id TEXT NOT NULL,
          version INTEGER NOT NULL,
          layer TEXT NOT NULL,
          kind TEXT NOT NULL,
          content TEXT NOT NULL,
          context TEXT,
          tags TEXT NOT NULL DEFAULT '[]',
          importance REAL NOT NULL,
          trust TEXT NOT NULL,
          critical INTEGER NOT NULL DEFAULT 0,
          scope TEXT NOT NULL,
          agent TEXT,
          session TEXT,
          conflict_key TEXT,
          content_hash TEXT NOT NULL,
          source TEXT,
          status TEXT NOT NULL,
          status_reason TEXT,
          superseded_by TEXT,
          valid_from INTEGER NOT NULL,
          valid_to INTEGER,
          recorded_at INTEGER NOT NULL,
          superseded_at INTEGER,
          change TEXT NOT NULL,
          UNIQUE (id, version)
        );
        -- Exactly one current (transaction-time open) version per memory.
        CREATE UNIQUE INDEX memories_current ON memories (id) WHERE superseded_at IS NULL;
        CREATE INDEX memories_current_hash ON memories (content_hash) WHERE superseded_at IS NULL;
        CREATE INDEX memories_current_conflict ON memories (conflict_key)
          WHERE superseded_at IS NULL AND conflict_key IS NOT NULL;
        CREATE INDEX memories_current_layer ON memories (layer, status) WHERE superseded_at IS NULL;
        CREATE INDEX memories_recorded ON memories (recorded_at);

        -- Counters and the pin change on use, not on knowledge: they live outside the versions.
        CREATE TABLE memory_state (
          id TEXT PRIMARY KEY,
          pinned INTEGER NOT NULL DEFAULT 0,
          access_count INTEGER NOT NULL DEFAULT 0,
          last_accessed_at INTEGER,
          confirmations INTEGER NOT NULL DEFAULT 1
        );

        CREATE TABLE annotations (
          id TEXT PRIMARY KEY,
          memory_id TEXT NOT NULL,
          text TEXT NOT NULL,
          agent TEXT,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX annotations_memory ON annotations (memory_id);

        -- Append-only: writes, reads and recalls, the input of importance, consolidation, timeline.
        CREATE TABLE events (
          seq INTEGER PRIMARY KEY,
          at INTEGER NOT NULL,
          type TEXT NOT NULL,
          memory_id TEXT,
          agent TEXT,
          session TEXT,
          data TEXT
        );
        CREATE INDEX events_memory ON events (memory_id);
        CREATE INDEX events_at ON events (at);
      `);
    },
  },
  {
    version: 2,
    name: 'entity graph, sessions, injection ledger, exactly-once requests',
    up(tx) {
      tx.run(`
        CREATE TABLE entities (
          id INTEGER PRIMARY KEY,
          key TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          type TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          merged_into INTEGER
        );
        CREATE TABLE entity_aliases (
          alias TEXT NOT NULL,
          entity_id INTEGER NOT NULL,
          PRIMARY KEY (alias, entity_id)
        );
        CREATE INDEX entity_aliases_entity ON entity_aliases (entity_id);
        CREATE TABLE memory_entities (
          memory_id TEXT NOT NULL,
          entity_id INTEGER NOT NULL,
          weight REAL NOT NULL,
          PRIMARY KEY (memory_id, entity_id)
        );
        CREATE INDEX memory_entities_entity ON memory_entities (entity_id);
        -- Undirected relations (co-occurs) are stored once with source_id < target_id.
        CREATE TABLE relations (
          source_id INTEGER NOT NULL,
          target_id INTEGER NOT NULL,
          type TEXT NOT NULL,
          strength REAL NOT NULL,
          evidence_count INTEGER NOT NULL,
          first_seen_at INTEGER NOT NULL,
          last_seen_at INTEGER NOT NULL,
          PRIMARY KEY (source_id, target_id, type)
        );
        CREATE INDEX relations_target ON relations (target_id);

        -- Working memory lives as long as its session: the TTL is refreshed on every access.
        CREATE TABLE sessions (
          id TEXT PRIMARY KEY,
          agent TEXT,
          started_at INTEGER NOT NULL,
          last_seen_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL
        );
        CREATE INDEX sessions_expiry ON sessions (expires_at);

        -- What was already put into a conversation, so context is not injected twice.
        CREATE TABLE injections (
          conversation TEXT NOT NULL,
          memory_id TEXT NOT NULL,
          content_hash TEXT NOT NULL,
          injected_at INTEGER NOT NULL,
          PRIMARY KEY (conversation, memory_id)
        );

        -- Results of applied client requests: a request re-sent after a host failover is answered
        -- from here instead of being applied twice.
        CREATE TABLE applied_requests (
          request_id TEXT PRIMARY KEY,
          method TEXT NOT NULL,
          result TEXT NOT NULL,
          at INTEGER NOT NULL
        );
        CREATE INDEX applied_requests_at ON applied_requests (at);
      `);
    },
  },
  {
    version: 3,
    name: 'retrieval: document numbers, lexical index, vectors, accumulated entity weights',
    up(tx) {
      tx.run(`
        -- A stable integer per memory: FTS4 docids and vector-index labels must be integers.
        CREATE TABLE memory_docs (
          doc INTEGER PRIMARY KEY,
          memory_id TEXT NOT NULL UNIQUE
        );
        -- Turns of one session in write order, for the neighbour channel.
        CREATE INDEX memories_current_session ON memories (session, id) WHERE superseded_at IS NULL AND session IS NOT NULL;
        CREATE VIRTUAL TABLE memory_fts USING fts4 (content, context, tags, entities, tokenize=simple);
        -- Embeddings, the source of truth for the vector index (a rebuildable cache).
        CREATE TABLE memory_vectors (
          doc INTEGER NOT NULL,
          model TEXT NOT NULL,
          content_hash TEXT NOT NULL,
          vector BLOB NOT NULL,
          PRIMARY KEY (doc, model)
        );
        -- Entity weights accumulated from past recalls, per scope ('workspace' or 'session:<id>'):
        -- the memory bias of personalised PageRank.
        CREATE TABLE entity_weights (
          scope TEXT NOT NULL,
          entity_id INTEGER NOT NULL,
          weight REAL NOT NULL,
          updated_at INTEGER NOT NULL,
          PRIMARY KEY (scope, entity_id)
        );
      `);
      // Index what earlier versions stored (tokenized here, journaled as plain inserts).
      indexMissing(tx);
    },
  },
  codeIndexMigration(4),
  {
    version: 5,
    name: 'codebase memories: which file content the derived memories describe',
    up(tx) {
      tx.run(`
        -- The content hash a file's codebase memories were derived from: a file whose indexed
        -- hash differs (new, changed, or indexed by a scan killed before deriving) is derived again.
        CREATE TABLE code_memory_sync (
          path TEXT PRIMARY KEY,
          content_hash TEXT NOT NULL
        );
      `);
    },
  },
  driftMigration(6),
  {
    version: 7,
    name: 'retrieval: ordered entity links and relations, FTS term statistics',
    up(tx) {
      tx.run(`
        -- The graph channel reads an entity's strongest links and relations first, with a LIMIT:
        -- ordered indexes make that read proportional to the limit, not to the entity's degree.
        CREATE INDEX memory_entities_entity_weight ON memory_entities (entity_id, weight DESC);
        CREATE INDEX relations_source_strength ON relations (source_id, strength DESC);
        CREATE INDEX relations_target_strength ON relations (target_id, strength DESC);
        -- Document frequency per term, so recall can leave out terms that match most memories.
        CREATE VIRTUAL TABLE memory_fts_terms USING fts4aux(memory_fts);
      `);
    },
  },
  {
    version: 8,
    name: 'write path: drop the entity indexes that version 7 made redundant',
    up(tx) {
      tx.run(`
        -- (entity_id, weight DESC) and (target_id, strength DESC) answer every lookup the plain
        -- indexes did; keeping both doubled the index work of each link, the write path's costliest.
        DROP INDEX memory_entities_entity;
        DROP INDEX relations_target;
      `);
    },
  },
  historyAnswersMigration(9),
  knowledgeGraphMigration(10),
  captureMigration(11),
  teamMigration(12),
  commitLinkMigration(13),
  accessDailyMigration(14),
];
