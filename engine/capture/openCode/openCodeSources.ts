import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { isInside } from '../workspaceSources';
import { list } from '../storeFiles';
import { OpenCodeDatabase } from './openCodeDatabase';
import { sessionRecords } from './openCodeRecords';
import type { KeyedRecord, OpenCodeSession } from './openCodeRecords';
import { OpenCodeStorage, globalLayout, projectLayouts } from './openCodeStorage';
import type { StorageLayout } from './openCodeStorage';

/**
 * A session kept as rows (OpenCode's), not as a file of records: `path` names it
 * (`<database>#<session id>`, or the session's JSON file), `signature` changes whenever any of
 * its rows may have, and `load` gives its finished rows as ledger records.
 */
export interface RowSource {
  agent: 'opencode';
  path: string;
  sessionId: string;
  signature: string;
  load: (now: number) => Promise<{ records: KeyedRecord[]; pending: boolean }>;
}

export interface RowSources {
  sources: RowSource[];
  /**
   * Lets the databases' copies go; `pending` names the sources that still have unfinished rows.
   * A database read whole, with nothing left unfinished, is not opened again until its files
   * change (an extension host reads every few seconds while an agent works).
   */
  close(pending: ReadonlySet<string>): void;
}

export interface OpenCodeFindOptions {
  /** sql.js's wasm, to read the database; without it only the JSON storage is read. */
  sqlWasmPath?: string;
  /** Only sessions updated at or after this time (epoch ms). */
  since?: number;
}

/** `opencode.db`, and `opencode-<channel>.db` of OpenCode's other release channels. */
const DATABASE = /^opencode(?:-[A-Za-z0-9._-]+)?\.db$/;

/**
 * The OpenCode sessions whose directory is inside the workspace, in its data folder
 * (`$XDG_DATA_HOME/opencode`, `~/.local/share/opencode` on every platform): those of each
 * database or, with none, those of the JSON storage of older versions. A session's directory is where OpenCode ran; its project is the repository's first
 * commit, which says nothing of the folder, so the directory decides.
 */
export async function openCodeSources(
  dataDir: string,
  root: string,
  options: OpenCodeFindOptions = {},
): Promise<RowSources> {
  const inside = (dir: string) => isInside(dir, root);
  const sources: RowSource[] = [];
  const opened: Array<{ db: OpenCodeDatabase; key: string; files: string }> = [];
  const recent = (s: OpenCodeSession) =>
    options.since === undefined || (s.updated ?? s.created ?? 0) >= options.since;
  const names = (await list(dataDir)).filter((f) => DATABASE.test(f));
  for (const name of options.sqlWasmPath === undefined ? [] : names) {
    const file = path.join(dataDir, name);
    const key = `${root}\0${file}`;
    const files = await fileSignature(file);
    if (quiet.get(key) === files) continue;
    const db = await OpenCodeDatabase.open(file, options.sqlWasmPath as string);
    if (db === undefined) continue;
    opened.push({ db, key, files });
    await new Promise((resolve) => setImmediate(resolve));
    const mine = db.sessions().filter((s) => inside(s.directory) && recent(s));
    // Between the steps that hold the thread (copying the image in, listing), others may run.
    await new Promise((resolve) => setImmediate(resolve));
    const signatures = db.signatures(mine.map((s) => s.id));
    for (const session of mine) {
      sources.push({
        agent: 'opencode',
        path: `${file}#${session.id}`,
        sessionId: session.id,
        signature: `${session.updated}:${session.title}:${signatures.get(session.id) ?? ''}`,
        load: (now) =>
          Promise.resolve(sessionRecords(session, db.messages(session.id), db.parts(session.id), now)),
      });
    }
  }
  for (const layout of await storageLayouts(dataDir, names.length > 0)) {
    const storage = new OpenCodeStorage(layout);
    for (const session of await storage.sessions(inside)) {
      if (!recent(session)) continue;
      sources.push({
        agent: 'opencode',
        path: session.file,
        sessionId: session.id,
        signature: `${session.updated}:${session.title}:${await storage.signature(session.id)}`,
        load: async (now) => {
          const messages = await storage.messages(session.id);
          const parts = await storage.parts(
            session.id,
            messages.map((m) => m.id),
          );
          return sessionRecords(session, messages, parts, now);
        },
      });
    }
  }
  const close = (pending: ReadonlySet<string>) => {
    for (const { db, key, files } of opened) {
      db.close();
      const prefix = `${key.slice(key.indexOf('\0') + 1)}#`;
      if (options.since === undefined && ![...pending].some((p) => p.startsWith(prefix)))
        quiet.set(key, files);
      else quiet.delete(key);
    }
  };
  return { sources, close };
}

/**
 * The JSON storage to read: none beside a database (1.2 copies the storage into it on first start
 * and leaves the files), else `storage/`, else the per-project storage of the first versions
 * (whose files OpenCode's first migration copied into `storage/`, also leaving them).
 */
async function storageLayouts(dataDir: string, database: boolean): Promise<StorageLayout[]> {
  if (database) return [];
  const storage = path.join(dataDir, 'storage');
  if ((await list(storage)).length > 0) return [globalLayout(storage)];
  return projectLayouts(dataDir);
}

/** Databases read whole with nothing pending, by workspace and file: the signature of their files then. */
const quiet = new Map<string, string>();

/** The size and modification time of a database and its WAL (a commit changes one of them). */
async function fileSignature(file: string): Promise<string> {
  const parts: string[] = [];
  for (const f of [file, `${file}-wal`]) {
    const stat = await fsp.stat(f).catch(() => undefined);
    parts.push(stat === undefined ? '-' : `${stat.size}@${stat.mtimeMs}`);
  }
  return parts.join(',');
}
