import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { jsonRecord } from '../events';
import { list } from '../storeFiles';
import { sessionOf } from './openCodeRecords';
import type { OpenCodePart, OpenCodeRow, OpenCodeSession } from './openCodeRecords';

/**
 * OpenCode's JSON storage before 1.2 (`<data>/storage/`; anomalyco/opencode,
 * packages/opencode/src/storage/storage.ts and json-migration.ts): one file per row,
 * `session/<project id>/<session id>.json`, `message/<session id>/<message id>.json` and
 * `part/<message id>/<part id>.json`, each rewritten whole when it changes. 1.2 copies them into
 * its database on first start and leaves them, so a session may be in both: they are the same
 * rows, read as one source per session either way (the ledger skips what it has).
 */
export class OpenCodeStorage {
  constructor(private readonly storage: string) {}

  /** Every session file with the session it holds (each file is small: its title and times). */
  async sessions(inside: (dir: string) => boolean): Promise<Array<OpenCodeSession & { file: string }>> {
    const found: Array<OpenCodeSession & { file: string }> = [];
    const sessions = path.join(this.storage, 'session');
    for (const project of await list(sessions)) {
      for (const name of await list(path.join(sessions, project))) {
        if (!name.endsWith('.json')) continue;
        const file = path.join(sessions, project, name);
        const known = directories.get(file);
        if (known !== undefined && !inside(known)) continue;
        const session = sessionOf(await readJson(file), name.slice(0, -'.json'.length));
        if (session === undefined) continue;
        remember(file, session.directory);
        if (inside(session.directory)) found.push({ ...session, file });
      }
    }
    return found;
  }

  /** The number and last change of a session's message and part files. */
  async signature(sessionId: string): Promise<string> {
    let files = 0;
    let last = 0;
    for (const [dir, names] of await this.files(sessionId)) {
      for (const name of names) {
        const stat = await fsp.stat(path.join(dir, name)).catch(() => undefined);
        files++;
        last = Math.max(last, stat?.mtimeMs ?? 0);
      }
    }
    return `${files}@${last}`;
  }

  async messages(sessionId: string): Promise<OpenCodeRow[]> {
    const dir = path.join(this.storage, 'message', sessionId);
    return rowsIn(dir, await jsonFiles(dir));
  }

  async parts(messageIds: readonly string[]): Promise<OpenCodePart[]> {
    const parts: OpenCodePart[] = [];
    for (const messageId of messageIds) {
      const dir = path.join(this.storage, 'part', messageId);
      for (const part of await rowsIn(dir, await jsonFiles(dir))) parts.push({ ...part, messageId });
    }
    return parts;
  }

  /** The message folder and each message's part folder of a session, with their JSON files. */
  private async files(sessionId: string): Promise<Array<[string, string[]]>> {
    const messages = path.join(this.storage, 'message', sessionId);
    const names = await jsonFiles(messages);
    const folders: Array<[string, string[]]> = [[messages, names]];
    for (const name of names) {
      const parts = path.join(this.storage, 'part', name.slice(0, -'.json'.length));
      folders.push([parts, await jsonFiles(parts)]);
    }
    return folders;
  }
}

/** A session's directory never changes: its file is read once per process to learn it. */
const directories = new Map<string, string>();

function remember(file: string, directory: string): void {
  if (directories.size >= 50_000) directories.clear();
  directories.set(file, directory);
}

async function jsonFiles(dir: string): Promise<string[]> {
  return (await list(dir)).filter((name) => name.endsWith('.json'));
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  return jsonRecord(await fsp.readFile(file, 'utf8').catch(() => ''));
}

/** The rows of a folder's files, their ids from the file names (as OpenCode's migration does). */
async function rowsIn(dir: string, names: readonly string[]): Promise<OpenCodeRow[]> {
  const rows: OpenCodeRow[] = [];
  for (const name of names) {
    const value = await readJson(path.join(dir, name));
    if (value === undefined) continue; // being rewritten, or damaged: read next time
    const { id: _id, sessionID: _session, messageID: _message, ...data } = value;
    rows.push({ id: name.slice(0, -'.json'.length), data });
  }
  return rows;
}
