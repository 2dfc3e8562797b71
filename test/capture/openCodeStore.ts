import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadSqlJs } from '../../engine/store/sqlite';
import { SQL_WASM_PATH } from '../support/temp';
import { FIXTURES, SHOP } from './captureDb';

/** A session as `opencode export` prints it: its info and each message with its parts. */
export interface ExportedSession {
  info: Record<string, unknown> & { id: string; projectID: string };
  messages: Array<{
    info: Record<string, unknown> & { id: string };
    parts: Array<Record<string, unknown> & { id: string }>;
  }>;
}

/**
 * The fixture's sessions (written for the tests from OpenCode's schema, not a real transcript),
 * run in `root` instead of SHOP when given.
 */
export function openCodeFixture(root = SHOP): ExportedSession[] {
  const text = readFileSync(path.join(FIXTURES, 'opencode-sessions.json'), 'utf8');
  return JSON.parse(text.replaceAll(SHOP, root)) as ExportedSession[];
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

/**
 * OpenCode's JSON storage before 1.2: one file per session, message and part; `per project`, the
 * first versions' layout (a storage in each project's folder, parts by session and message).
 */
export function writeStorage(
  dataDir: string,
  sessions: readonly ExportedSession[],
  layout: 'global' | 'per project' = 'global',
): void {
  const storage = path.join(dataDir, 'storage');
  for (const { info, messages } of sessions) {
    const project = path.join(dataDir, 'project', info.projectID, 'storage', 'session');
    const files =
      layout === 'global'
        ? {
            session: path.join(storage, 'session', info.projectID, `${info.id}.json`),
            messages: path.join(storage, 'message', info.id),
            parts: (message: string) => path.join(storage, 'part', message),
          }
        : {
            session: path.join(project, 'info', `${info.id}.json`),
            messages: path.join(project, 'message', info.id),
            parts: (message: string) => path.join(project, 'part', info.id, message),
          };
    writeJson(files.session, info);
    for (const message of messages) {
      writeJson(path.join(files.messages, `${message.info.id}.json`), {
        ...message.info,
        sessionID: info.id,
      });
      for (const part of message.parts) {
        writeJson(path.join(files.parts(message.info.id), `${part.id}.json`), {
          ...part,
          sessionID: info.id,
          messageID: message.info.id,
        });
      }
    }
  }
}

/** The tables of OpenCode's database (session.sql.ts) that capture reads, filled with `sessions`. */
export async function writeDatabase(file: string, sessions: readonly ExportedSession[]): Promise<void> {
  const SQL = await loadSqlJs(SQL_WASM_PATH);
  const db = new SQL.Database();
  db.exec(`
    CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL,
      directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL,
      time_updated INTEGER NOT NULL);
    CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,
      time_updated INTEGER NOT NULL, data TEXT NOT NULL);
    CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
      time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
    CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
    CREATE INDEX part_message_id_id_idx ON part (message_id, id);
    CREATE INDEX part_session_idx ON part (session_id);`);
  for (const { info, messages } of sessions) {
    const time = info['time'] as { created: number; updated: number };
    db.run('INSERT INTO session VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      info.id,
      info.projectID,
      (info['parentID'] as string | undefined) ?? null,
      info.id,
      info['directory'] as string,
      info['title'] as string,
      info['version'] as string,
      time.created,
      time.updated,
    ]);
    for (const { info: message, parts } of messages) {
      const { id, ...data } = message;
      const created = (message['time'] as { created: number }).created;
      db.run('INSERT INTO message VALUES (?, ?, ?, ?, ?)', [
        id,
        info.id,
        created,
        created,
        JSON.stringify(data),
      ]);
      for (const { id: partId, ...partData } of parts) {
        db.run('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)', [
          partId,
          id,
          info.id,
          created,
          created,
          JSON.stringify(partData),
        ]);
      }
    }
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, db.export());
  db.close();
}
