/**
 * How a journal record names its statement texts compactly (statementLog.ts): a single remember
 * journaled ~1.3 KB of SQL text per transaction, most of it the same few texts every time, and
 * multi-row inserts repeat one placeholder group up to 256 times (heldRows.ts).
 *
 * A text is written as one of:
 * - a number: its index in KNOWN_STATEMENTS;
 * - [text or index, rows]: a multi-row insert, written as its one-row form and the row count;
 * - the text itself (anything else: DDL, one-off statements, texts changed since the list was made).
 * Decoding rebuilds the exact text, so replay runs the same statements as before.
 */
export type CompactSql = string | number | [string | number, number];

/**
 * Append only: journals name these by index, so an entry is never edited, moved or removed (a
 * test pins them). A statement whose text changes in code simply stops matching and is written
 * out in full; add its new text at the end. The texts the memory model's writes journal most.
 */
export const KNOWN_STATEMENTS: readonly string[] = Object.freeze([
  'INSERT INTO memories (id, version, layer, kind, content, context, tags, importance, trust, critical, scope, agent, session, conflict_key, content_hash, source, status, status_reason, superseded_by, valid_from, valid_to, recorded_at, superseded_at, change) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)',
  'INSERT OR IGNORE INTO entity_aliases (alias, entity_id) VALUES (?, ?)',
  'INSERT INTO relations (source_id, target_id, type, strength, evidence_count, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source_id, target_id, type) DO UPDATE SET evidence_count = evidence_count + excluded.evidence_count, strength = (evidence_count + excluded.evidence_count) / (evidence_count + excluded.evidence_count + 2.0), last_seen_at = excluded.last_seen_at',
  'INSERT INTO relations (source_id, target_id, type, strength, evidence_count, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  'INSERT INTO memory_entities (memory_id, entity_id, weight) VALUES (?, ?, ?)',
  'INSERT INTO entities (key, name, type, created_at) VALUES (?, ?, ?, ?)',
  'INSERT INTO events (at, type, memory_id, agent, session, data) VALUES (?, ?, ?, ?, ?, ?)',
  'INSERT INTO memory_fts (docid, content, context, tags, entities) VALUES (?, ?, ?, ?, ?)',
  'INSERT INTO memory_state (id, pinned) VALUES (?, ?)',
  'INSERT INTO memory_docs (doc, memory_id) VALUES (?, ?)',
  'INSERT INTO applied_requests (request_id, method, result, at) VALUES (?, ?, ?, ?)',
  'INSERT INTO engram_meta (key, value) VALUES (?, ?)',
  'DELETE FROM engram_meta WHERE key = ?',
]);

const knownIndex = new Map(KNOWN_STATEMENTS.map((text, index) => [text, index]));

/**
 * A VALUES list of identical placeholder groups: prefix, the group, its repetitions, the rest
 * (an upsert clause). The lazy prefix stops at the first VALUES.
 */
const MULTI_ROW = /^(.*? VALUES )(\((?:\?, ?)*\?\))((?:, \2)*)(.*)$/s;

/** Texts seen so far and how they are written; bounded (IN lists of every length pass here). */
const encoded = new Map<string, CompactSql>();
const MAX_REMEMBERED = 4096;

/** How a record writes `text`; the same object for the same text (cached). */
export function compactSql(text: string): CompactSql {
  let form = encoded.get(text);
  if (form !== undefined) return form;
  form = compactForm(text);
  if (encoded.size >= MAX_REMEMBERED) encoded.clear();
  encoded.set(text, form);
  return form;
}

function compactForm(text: string): CompactSql {
  const known = knownIndex.get(text);
  if (known !== undefined) return known;
  const match = MULTI_ROW.exec(text);
  if (!match?.[3]) return text;
  const [, prefix, group, repeats, rest] = match as unknown as [string, string, string, string, string];
  const rows = 1 + repeats.length / (group.length + 2);
  const oneRow = `${prefix}${group}${rest}`;
  // Written compactly only if decoding gives this very text back.
  if (expand(oneRow, rows) !== text) return text;
  return [knownIndex.get(oneRow) ?? oneRow, rows];
}

/** The statement text `form` names; throws (a corrupt record) if it names none. */
export function sqlText(form: unknown): string {
  if (typeof form === 'string') return form;
  if (typeof form === 'number') return knownText(form);
  if (Array.isArray(form) && form.length === 2 && Number.isInteger(form[1]) && (form[1] as number) > 0) {
    const [oneRow, rows] = form as [unknown, number];
    const base = typeof oneRow === 'number' ? knownText(oneRow) : oneRow;
    if (typeof base === 'string') return expanded(base, rows);
  }
  throw new Error('journal record names a statement in an unknown form');
}

function knownText(index: number): string {
  const text = KNOWN_STATEMENTS[index];
  if (text === undefined) throw new Error(`journal record names unknown known statement ${index}`);
  return text;
}

/** Decoded multi-row texts, so a replay's statement cache sees the same string objects. */
const expansions = new Map<string, Map<number, string>>();

function expanded(oneRow: string, rows: number): string {
  let byRows = expansions.get(oneRow);
  if (!byRows) {
    if (expansions.size >= MAX_REMEMBERED) expansions.clear();
    expansions.set(oneRow, (byRows = new Map<number, string>()));
  }
  let text = byRows.get(rows);
  if (text === undefined) byRows.set(rows, (text = expand(oneRow, rows)));
  return text;
}

function expand(oneRow: string, rows: number): string {
  const match = MULTI_ROW.exec(oneRow);
  if (!match || match[3])
    throw new Error('journal record names a multi-row statement without one VALUES row');
  const [, prefix, group, , rest] = match as unknown as [string, string, string, string, string];
  return `${prefix}${new Array<string>(rows).fill(group).join(', ')}${rest}`;
}
