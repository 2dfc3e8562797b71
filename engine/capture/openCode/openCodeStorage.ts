import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { jsonRecord } from '../events';
import { list } from '../storeFiles';
import { sessionOf } from './openCodeRecords';
import type { OpenCodePart, OpenCodeRow, OpenCodeSession } from './openCodeRecords';

/** Where one layout of OpenCode's JSON storage keeps a session's files. */
export interface StorageLayout {
  /** The folders that hold session files (`<session id>.json`). */
  sessionFolders(): Promise<string[]>;
  messageFolder(sessionId: string): string;
  partFolder(sessionId: string, messageId: string): string;
}

/**
 * OpenCode's storage before 1.2 (`<data>/storage/`; anomalyco/opencode,
 * packages/opencode/src/storage/storage.ts and json-migration.ts): one file per row,
 * `session/<project id>/<session id>.json`, `message/<session id>/<message id>.json` and
 * `part/<message id>/<part id>.json`, each rewritten whole when it changes.
 */
export function globalLayout(storage: string): StorageLayout {
  return {
    sessionFolders: async () =>
      (await list(path.join(storage, 'session'))).map((p) => path.join(storage, 'session', p)),
    messageFolder: (sessionId) => path.join(storage, 'message', sessionId),
    partFolder: (_sessionId, messageId) => path.join(storage, 'part', messageId),
  };
}

/**
 * The first layout (mid-2025), a storage per project (`<data>/project/<folder>/storage/session/`:
 * `info/<session id>.json`, `message/<session id>/<message id>.json`, `part/<session id>/<message
 * id>/<part id>.json`), which the first of OpenCode's storage migrations copied into the one above.
 */
export async function projectLayouts(data: string): Promise<StorageLayout[]> {
  return (await list(path.join(data, 'project'))).map((project) => {
    const root = path.join(data, 'project', project, 'storage', 'session');
    return {
      sessionFolders: () => Promise.resolve([path.join(root, 'info')]),
      messageFolder: (sessionId) => path.join(root, 'message', sessionId),
      partFolder: (sessionId, messageId) => path.join(root, 'part', sessionId, messageId),
    };
  });
}

/** The sessions of one layout and their rows. */
export class OpenCodeStorage {
  constructor(private readonly layout: StorageLayout) {}

  /** Every session file with the session it holds (each file is small: its title and times). */
  async sessions(inside: (dir: string) => boolean): Promise<Array<OpenCodeSession & { file: string }>> {
    const found: Array<OpenCodeSession & { file: string }> = [];
    for (const folder of await this.layout.sessionFolders()) {
      for (const name of await list(folder)) {
        if (!name.endsWith('.json')) continue;
        const file = path.join(folder, name);
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
    const dir = this.layout.messageFolder(sessionId);
    return rowsIn(dir, await jsonFiles(dir));
  }

  async parts(sessionId: string, messageIds: readonly string[]): Promise<OpenCodePart[]> {
    const parts: OpenCodePart[] = [];
    for (const messageId of messageIds) {
      const dir = this.layout.partFolder(sessionId, messageId);
      for (const part of await rowsIn(dir, await jsonFiles(dir))) parts.push({ ...part, messageId });
    }
    return parts;
  }

  /** The message folder and each message's part folder of a session, with their JSON files. */
  private async files(sessionId: string): Promise<Array<[string, string[]]>> {
    const messages = this.layout.messageFolder(sessionId);
    const names = await jsonFiles(messages);
    const folders: Array<[string, string[]]> = [[messages, names]];
    for (const name of names) {
      const parts = this.layout.partFolder(sessionId, name.slice(0, -'.json'.length));
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
