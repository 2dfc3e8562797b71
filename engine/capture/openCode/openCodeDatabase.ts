import { promises as fsp } from 'node:fs';
import type { Database, SqlValue } from 'sql.js';
import { privateSqlJs } from '../../store/sqlite';
import { jsonRecord } from '../events';
import type { OpenCodePart, OpenCodeRow, OpenCodeSession } from './openCodeRecords';
import { applyWal } from './sqliteWal';

/**
 * OpenCode's database since 1.2 (`opencode.db`, `opencode-<channel>.db`; anomalyco/opencode,
 * packages/opencode/src/session/session.sql.ts): tables `session`, `message` and `part`, each
 * row's content a JSON `data` column. Read from a copy in memory (the main file with its WAL
 * applied), in a sql.js module of its own that goes with the copy: OpenCode keeps writing to
 * its files, which are never opened for writing here.
 */
export class OpenCodeDatabase {
  private constructor(private readonly db: Database) {}

  /** The database as committed now; undefined when it is missing or not a database this can read. */
  static async open(file: string, sqlWasmPath: string): Promise<OpenCodeDatabase | undefined> {
    const image = await snapshot(file);
    if (image === undefined) return undefined;
    const SQL = await privateSqlJs(sqlWasmPath);
    try {
      const db = new SQL.Database(image);
      db.exec('SELECT 1 FROM session LIMIT 1');
      return new OpenCodeDatabase(db);
    } catch {
      return undefined; // not OpenCode's schema, or damaged: nothing to read
    }
  }

  sessions(): OpenCodeSession[] {
    return this.rows(
      'SELECT id, directory, title, parent_id, time_created, time_updated FROM session',
      [],
    ).flatMap(([id, directory, title, parent, created, updated]) =>
      typeof id === 'string' && typeof directory === 'string'
        ? [
            {
              id,
              directory,
              ...(typeof title === 'string' ? { title } : {}),
              ...(typeof parent === 'string' ? { parentID: parent } : {}),
              ...(typeof created === 'number' ? { created } : {}),
              ...(typeof updated === 'number' ? { updated } : {}),
            },
          ]
        : [],
    );
  }

  /**
   * What changes when anything of these sessions' rows does (their count, their last update).
   * By session, through OpenCode's index on `session_id`: the other folders' rows are not read.
   */
  signatures(sessionIds: readonly string[]): Map<string, string> {
    const signatures = new Map<string, string>();
    if (sessionIds.length === 0) return signatures;
    const marks = sessionIds.map(() => '?').join(', ');
    for (const table of ['message', 'part']) {
      const sql = `SELECT session_id, count(*), max(time_updated) FROM ${table} WHERE session_id IN (${marks}) GROUP BY session_id`;
      for (const [session, rows, updated] of this.rows(sql, [...sessionIds]))
        signatures.set(
          String(session),
          `${signatures.get(String(session)) ?? ''}${table}:${String(rows)}@${String(updated)};`,
        );
    }
    return signatures;
  }

  messages(sessionId: string): OpenCodeRow[] {
    return this.rows('SELECT id, time_created, data FROM message WHERE session_id = ?', [sessionId]).flatMap(
      ([id, created, data]) => row(id, created, data),
    );
  }

  parts(sessionId: string): OpenCodePart[] {
    return this.rows('SELECT id, time_created, data, message_id FROM part WHERE session_id = ?', [
      sessionId,
    ]).flatMap(([id, created, data, message]) =>
      typeof message === 'string' ? row(id, created, data).map((r) => ({ ...r, messageId: message })) : [],
    );
  }

  close(): void {
    this.db.close();
  }

  private rows(sql: string, params: SqlValue[]): SqlValue[][] {
    try {
      return this.db.exec(sql, params)[0]?.values ?? [];
    } catch {
      return []; // a table or column this version of OpenCode does not have
    }
  }
}

function row(id?: SqlValue, created?: SqlValue, data?: SqlValue): OpenCodeRow[] {
  const value = typeof data === 'string' ? jsonRecord(data) : undefined;
  if (typeof id !== 'string' || value === undefined) return [];
  return [{ id, data: value, ...(typeof created === 'number' ? { created } : {}) }];
}

/**
 * The main file and its WAL, read until the main file stays the same across both reads (a
 * checkpoint between them would pair a main file with a log that no longer fits it).
 */
async function snapshot(file: string): Promise<Uint8Array | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = await fsp.stat(file).catch(() => undefined);
    if (before === undefined) return undefined;
    const main = await fsp.readFile(file).catch(() => undefined);
    const wal = await fsp.readFile(`${file}-wal`).catch(() => undefined);
    const after = await fsp.stat(file).catch(() => undefined);
    if (main === undefined) return undefined;
    if (after !== undefined && after.mtimeMs === before.mtimeMs && after.size === main.length)
      return applyWal(main, wal);
  }
  return undefined;
}
