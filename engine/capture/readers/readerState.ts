/**
 * What a reader remembers between two reads of the same file (ingest keeps it beside the file's
 * offset, as JSON): the session a record without a session id belongs to, and the calls whose
 * results are still to come. Bounded, so a long session cannot grow it without limit.
 */
export interface ReaderState {
  sessionId?: string;
  /** Sessions already announced by a session event. */
  seen: string[];
  /** The last model named per session, so a session event is sent only on a change. */
  models: Record<string, string>;
  /** Calls whose result, when it comes, is a command's (its exit status). */
  commandCalls: string[];
  /** Model message ids whose usage was counted (Claude Code repeats it on every block's line). */
  usageIds: string[];
  /** The working directory each session started in (Codex legacy files name it in a message). */
  cwd?: string;
  /** The session that spawned this file's (Gemini CLI names it by the file's folder). */
  parent?: string;
  /** Calls that touched an excluded path: their results are not kept either (ingest.ts). */
  excludedCalls?: string[];
  /** The file's modification time when it was read (a file rewritten whole is read again when it changes). */
  fileMtime?: number;
  /**
   * A session kept as rows (rowIngest.ts): its signature when it was last read, and whether rows
   * were left unfinished then (read again until they are).
   */
  rows?: { signature: string; pending: boolean };
}

const KEEP = 200;

export function emptyState(sessionId?: string): ReaderState {
  return { ...(sessionId ? { sessionId } : {}), seen: [], models: {}, commandCalls: [], usageIds: [] };
}

/** Adds to a bounded list; false when it was there already. */
export function remember(list: string[], value: string): boolean {
  if (list.includes(value)) return false;
  list.push(value);
  if (list.length > KEEP) list.splice(0, list.length - KEEP);
  return true;
}

/** Removes from a list; true when it was there. */
export function take(list: string[], value: string): boolean {
  const at = list.indexOf(value);
  if (at === -1) return false;
  list.splice(at, 1);
  return true;
}

/** A state read back from storage: anything unusable starts afresh (it only saves work). */
export function parseState(json: string | null | undefined, sessionId?: string): ReaderState {
  if (!json) return emptyState(sessionId);
  try {
    const value = JSON.parse(json) as Partial<ReaderState>;
    return {
      ...emptyState(sessionId),
      ...value,
      seen: Array.isArray(value.seen) ? value.seen : [],
      commandCalls: Array.isArray(value.commandCalls) ? value.commandCalls : [],
      usageIds: Array.isArray(value.usageIds) ? value.usageIds : [],
      models: typeof value.models === 'object' && value.models !== null ? value.models : {},
    };
  } catch {
    return emptyState(sessionId);
  }
}
