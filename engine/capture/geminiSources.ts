import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { list } from './storeFiles';

/**
 * Gemini CLI's files in its `tmp` folder: a folder per project (named by the SHA-256 of the
 * project root, or since early 2026 by a short name with the root in its `.project_root`), with
 * the chats in `chats/` (`session-*.jsonl`, before April 2026 `session-*.json`; a sub-agent's in
 * `chats/<parent session id>/`) and `/chat save` checkpoints (`checkpoint-<tag>.json`) beside it.
 */
export async function geminiChatFiles(tmp: string): Promise<string[]> {
  const files: string[] = [];
  for (const project of await list(tmp)) {
    const chats = path.join(tmp, project, 'chats');
    for (const entry of await list(chats)) {
      if (entry.startsWith('session-') && isChat(entry)) files.push(path.join(chats, entry));
      // A sub-agent's chats are in a folder named after its parent session.
      for (const sub of await list(path.join(chats, entry))) {
        if (isChat(sub)) files.push(path.join(chats, entry, sub));
      }
    }
  }
  return files.sort();
}

const isChat = (name: string) => name.endsWith('.jsonl') || name.endsWith('.json');

/** The SHA-256 of a project root, as Gemini CLI names the project (`getProjectHash`). */
export function geminiProjectHash(root: string): string {
  return createHash('sha256').update(path.resolve(root)).digest('hex');
}

/**
 * Whether a chat's head names this project: `projectHash` is on the first line of a log, a few
 * lines down in a pretty-printed whole chat. Undefined while the file says nothing yet.
 */
export function chatOfProject(head: string, hash: string): boolean | undefined {
  const named = /"projectHash"\s*:\s*"([^"]*)"/.exec(head)?.[1];
  return named === undefined ? undefined : named === hash;
}

/**
 * The checkpoints of this project: they name no project inside, so the folder says whose they
 * are (its name is the project's hash, or its `.project_root` names the root). Nothing of another
 * project's folder is read but that marker.
 */
export async function geminiCheckpointFiles(tmp: string, root: string): Promise<string[]> {
  const hash = geminiProjectHash(root);
  const files: string[] = [];
  for (const project of await list(tmp)) {
    const folder = path.join(tmp, project);
    if (project !== hash && !(await markedAs(folder, root))) continue;
    for (const entry of await list(folder)) {
      if (entry.startsWith('checkpoint') && entry.endsWith('.json')) files.push(path.join(folder, entry));
    }
  }
  return files.sort();
}

async function markedAs(folder: string, root: string): Promise<boolean> {
  try {
    const owner = (await fsp.readFile(path.join(folder, '.project_root'), 'utf8')).trim();
    return owner !== '' && path.resolve(owner) === path.resolve(root);
  } catch {
    return false;
  }
}
