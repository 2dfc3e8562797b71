import { EngramError, invalidInput } from '../errors';
import { storedText } from '../extract/storedText';
import { contentHash } from '../memory/contentHash';
import { forEachJsonObject } from './jsonLines';
import { importIntoKnowledgeGraph } from '../knowledgeGraph/graphImport';
import type { KgEntity, KgRelation } from '../knowledgeGraph/graphTypes';
import type { MemoryLimits } from '../memory/limits';
import { optionalText } from '../memory/validate';
import { schemaVersion } from '../store/migrate';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';

/**
 * Engram's own export format: JSON Lines, a header then one line per row of every table that holds
 * knowledge, every version of every memory included. `_table` names the table of a row (no column
 * starts with an underscore, so it never collides with a field). Importing an export into an empty database
 * and exporting again gives the same lines (after the header).
 */
export const FORMAT = 'engram-export';
export const FORMAT_VERSION = 1;

/** Tables in dependency order, with the column that identifies a row for de-duplication. */
const TABLES = [
  'memories',
  'memory_state',
  'annotations',
  'entities',
  'entity_aliases',
  'memory_entities',
  'relations',
  'events',
  'sessions',
  'injections',
  'kg_entities',
  'kg_observations',
  'kg_relations',
] as const;
type Table = (typeof TABLES)[number];

const ORDER_BY: Record<Table, string> = {
  memories: 'id, version',
  memory_state: 'id',
  annotations: 'id',
  entities: 'id',
  entity_aliases: 'entity_id, alias',
  memory_entities: 'memory_id, entity_id',
  relations: 'source_id, target_id, type',
  events: 'seq',
  sessions: 'id',
  injections: 'conversation, memory_id',
  kg_entities: 'id',
  kg_observations: 'id',
  kg_relations: 'id',
};

/** The compat knowledge graph's tables: imported as a graph (ids are local), not row by row. */
const KNOWLEDGE_GRAPH_TABLES: ReadonlySet<Table> = new Set([
  'kg_entities',
  'kg_observations',
  'kg_relations',
]);

/** The compat graph an export's kg_* rows hold, in their order. */
function knowledgeGraphOf(lines: readonly Line[]): { entities: KgEntity[]; relations: KgRelation[] } {
  const byId = new Map<number, KgEntity>();
  const entities: KgEntity[] = [];
  for (const line of lines.filter((l) => l._table === 'kg_entities')) {
    const entity = { name: str(line['name']), entityType: str(line['entity_type']), observations: [] };
    byId.set(Number(line['id']), entity);
    entities.push(entity);
  }
  for (const line of lines.filter((l) => l._table === 'kg_observations'))
    byId.get(Number(line['entity_id']))?.observations.push(str(line['content']));
  const relations = lines
    .filter((l) => l._table === 'kg_relations')
    .map((l) => ({
      from: str(l['from_name']),
      to: str(l['to_name']),
      relationType: str(l['relation_type']),
    }));
  return { entities, relations };
}

/** Columns written for each table; `rowid` of memories and `seq` of events are local. */
function columnsOf(reader: SqlReader, table: Table): string[] {
  return reader
    .all<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
    .map((c) => c.name)
    .filter((name) => !(table === 'memories' && name === 'rowid'));
}

/**
 * The export lines of a few memories: every version, their counters and annotations (what a
 * replica of the team scope copies, teamReplica.ts), in the same form as exportLines.
 */
export function memoryLines(reader: SqlReader, ids: readonly string[]): string[] {
  const lines: string[] = [];
  const given = JSON.stringify(ids);
  for (const [table, key] of [
    ['memories', 'id'],
    ['memory_state', 'id'],
    ['annotations', 'memory_id'],
  ] as const) {
    const rows = reader.all(
      `SELECT ${columnsOf(reader, table).join(', ')} FROM ${table}
       WHERE ${key} IN (SELECT value FROM json_each(?)) ORDER BY ${ORDER_BY[table]}`,
      [given],
    );
    for (const row of rows) lines.push(JSON.stringify({ _table: table, ...row }));
  }
  return lines;
}

/** The column naming the memory a row belongs to, in the tables that hold one. */
const MEMORY_COLUMN: Partial<Record<Table, string>> = {
  memories: 'id',
  memory_state: 'id',
  annotations: 'memory_id',
  memory_entities: 'memory_id',
  events: 'memory_id',
  injections: 'memory_id',
};

/**
 * The whole export. `hidden`: memories the reader may not see (visibility.ts), left out with
 * every row that names them.
 */
export function* exportLines(
  reader: SqlReader,
  schemaVersion: number,
  exportedAt: number,
  hidden: ReadonlySet<string> = new Set(),
): Generator<string> {
  yield JSON.stringify({ _format: FORMAT, version: FORMAT_VERSION, schema: schemaVersion, exportedAt });
  for (const table of TABLES) {
    const columns = columnsOf(reader, table);
    const memoryColumn = hidden.size > 0 ? MEMORY_COLUMN[table] : undefined;
    const rows = reader.all<Record<string, unknown>>(
      `SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${ORDER_BY[table]}`,
    );
    for (const row of rows) {
      if (memoryColumn !== undefined && hidden.has(row[memoryColumn] as string)) continue;
      yield JSON.stringify({ _table: table, ...row });
    }
  }
}

function isHeader(line: string): boolean {
  try {
    return (JSON.parse(line) as { _format?: unknown })._format === FORMAT;
  } catch {
    return false;
  }
}

export interface ImportCounts {
  [table: string]: { added: number; skipped: number };
}

type Line = Record<string, unknown> & { _table: Table };

/**
 * Text fields with a size limit, named as remember, edit and annotate name them: an import must not
 * bring in what those would refuse (a 100 MB memory took 805 MB of RAM to read back).
 */
const SIZED_FIELDS: Partial<Record<Table, Record<string, [string, (limits: MemoryLimits) => number]>>> = {
  memories: {
    content: ['content', (l) => l.maxContentChars],
    context: ['context', (l) => l.maxContextChars],
  },
  annotations: { text: ['annotation', (l) => l.maxAnnotationChars] },
};

function checkSizes(
  table: Table,
  record: Record<string, unknown>,
  limits: MemoryLimits,
  where: string,
): void {
  for (const [field, [label, limit]] of Object.entries(SIZED_FIELDS[table] ?? {})) {
    try {
      optionalText(label, record[field], limit(limits));
    } catch (error) {
      if (EngramError.is(error)) throw new EngramError(error.code, `${where}: ${error.message}`);
      throw error;
    }
  }
}

/** An export from a newer schema may carry meaning this Engram would drop or misread: refused. */
function checkSchema(schema: unknown, known: number, where: string): void {
  if (schema === undefined) return;
  if (typeof schema !== 'number' || !Number.isInteger(schema) || schema < 1)
    throw invalidInput(`${where}: schema must be a whole number; got ${JSON.stringify(schema)}`);
  if (schema > known)
    throw invalidInput(
      `${where}: the export has schema version ${schema} but this Engram knows only ${known}: update Engram`,
    );
}

/**
 * Parses and checks every line first: a malformed or oversized line rejects the whole file, naming
 * the line.
 */
export function parseEngramLines(reader: SqlReader, lines: string[], limits: MemoryLimits): Line[] {
  const columns = new Map<Table, Set<string>>(TABLES.map((t) => [t, new Set(columnsOf(reader, t))]));
  const parsed: Line[] = [];
  const first = lines.find((line) => line.trim() !== '');
  if (first === undefined || !isHeader(first)) {
    throw invalidInput(`not an Engram export: the first line must be {"_format":"${FORMAT}",...}`);
  }
  forEachJsonObject(lines, (record, where) => {
    if (record['_format'] === FORMAT) {
      if (record['version'] !== FORMAT_VERSION)
        throw invalidInput(`${where}: export format version ${String(record['version'])} is not supported`);
      checkSchema(record['schema'], schemaVersion(reader), where);
      return;
    }
    const table = record['_table'] as Table;
    const known = columns.get(table);
    if (!known) throw invalidInput(`${where} names unknown table ${JSON.stringify(record['_table'])}`);
    for (const [key, field] of Object.entries(record)) {
      if (key === '_table') continue;
      if (!known.has(key)) throw invalidInput(`${where}: ${table} has no field "${key}"`);
      if (field !== null && typeof field !== 'string' && typeof field !== 'number') {
        throw invalidInput(`${where}: field "${key}" must be text, a number or null`);
      }
    }
    checkSizes(table, record, limits, where);
    parsed.push(record as Line);
  });
  return parsed;
}

/**
 * A line as it may be stored: every text without secrets (the file may come from another tool or
 * an older version). A redacted memory gets the content hash of its stored content, and entities
 * are matched by the stored key, which is what the store would have bound anyway.
 */
function storedLine(line: Line): Line {
  const stored = { ...line };
  for (const [key, value] of Object.entries(line)) {
    if (typeof value === 'string' && key !== '_table') stored[key] = storedText(value);
  }
  if (line._table === 'memories' && stored['content'] !== line['content'])
    stored['content_hash'] = contentHash(String(stored['content']));
  // Keys are lower-cased names, the redaction marker included (as upsertEntity makes them).
  if (line._table === 'entities' && stored['name'] !== line['name'])
    stored['key'] = String(stored['name']).trim().toLowerCase();
  else if (line._table === 'entities' && stored['key'] !== line['key'])
    stored['key'] = String(stored['key']).toLowerCase();
  if (line._table === 'entity_aliases' && stored['alias'] !== line['alias'])
    stored['alias'] = String(stored['alias']).toLowerCase();
  return stored;
}

/**
 * Imports parsed lines in one transaction. Memories already present (same id and version) are kept
 * as they are; entities are matched by key so that ids from another database never collide.
 */
export function importEngramLines(tx: SqlWriter, given: Line[]): ImportCounts {
  const lines = given.map(storedLine);
  const counts: ImportCounts = {};
  const bump = (table: string, added: boolean) => {
    const entry = (counts[table] ??= { added: 0, skipped: 0 });
    if (added) entry.added++;
    else entry.skipped++;
  };
  const entityIds = new Map<number, number>();
  const mapEntity = (value: unknown) => (typeof value === 'number' ? (entityIds.get(value) ?? null) : null);
  const newMemories = new Set<string>();

  for (const line of lines.filter((l) => l._table === 'entities')) {
    const key = String(line['key']);
    const existing = tx.value<number>('SELECT id FROM entities WHERE key = ?', [key]);
    if (existing !== undefined) {
      entityIds.set(Number(line['id']), existing);
      bump('entities', false);
      continue;
    }
    tx.run('INSERT INTO entities (key, name, type, created_at) VALUES (?, ?, ?, ?)', [
      key,
      str(line['name']),
      str(line['type']),
      num(line['created_at']),
    ]);
    entityIds.set(Number(line['id']), tx.value<number>('SELECT id FROM entities WHERE key = ?', [key])!);
    bump('entities', true);
  }
  for (const line of lines.filter((l) => l._table === 'entities' && typeof l['merged_into'] === 'number')) {
    tx.run('UPDATE entities SET merged_into = ? WHERE id = ? AND merged_into IS NULL', [
      mapEntity(line['merged_into']),
      mapEntity(line['id']),
    ]);
  }

  // The graph merges (an entity already there gets only the observations it lacks): counted by
  // what the tables gained.
  const rowsOf = (table: Table) => tx.value<number>(`SELECT count(*) FROM ${table}`) ?? 0;
  const before = [...KNOWLEDGE_GRAPH_TABLES].map(rowsOf);
  const graph = knowledgeGraphOf(lines);
  importIntoKnowledgeGraph(tx, graph.entities, graph.relations);
  [...KNOWLEDGE_GRAPH_TABLES].forEach((table, i) => {
    const given = lines.filter((l) => l._table === table).length;
    const added = rowsOf(table) - (before[i] ?? 0);
    if (given > 0) counts[table] = { added, skipped: given - added };
  });

  for (const line of lines) {
    const { _table: type, ...fields } = line;
    if (type === 'entities' || KNOWLEDGE_GRAPH_TABLES.has(type)) continue;
    if (
      type === 'memories' &&
      tx.value('SELECT 1 FROM memories WHERE id = ? AND version = 1', [str(fields['id'])]) === undefined
    ) {
      newMemories.add(String(fields['id']));
    }
    if (type === 'entity_aliases' || type === 'memory_entities')
      fields['entity_id'] = mapEntity(fields['entity_id']);
    if (type === 'relations') {
      fields['source_id'] = mapEntity(fields['source_id']);
      fields['target_id'] = mapEntity(fields['target_id']);
    }
    if (type === 'events') {
      // Events are local history: replaying another database's events is only right for memories it brings.
      if (typeof fields['memory_id'] === 'string' && !newMemories.has(fields['memory_id'])) {
        bump(type, false);
        continue;
      }
      delete fields['seq'];
    }
    const names = Object.keys(fields);
    const changed = tx.run(
      `INSERT OR IGNORE INTO ${type} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      names.map((name) => fields[name] as string | number | null),
    );
    bump(type, changed > 0);
  }
  const broken = tx.value<number>(
    'SELECT count(*) FROM (SELECT id FROM memories GROUP BY id HAVING sum(superseded_at IS NULL) != 1)',
  );
  if (broken)
    throw new EngramError(
      'INVALID_INPUT',
      `the import would leave ${broken} memories without exactly one current version`,
    );
  return counts;
}

function str(value: unknown): string {
  return String(value);
}

function num(value: unknown): number {
  return Number(value);
}
