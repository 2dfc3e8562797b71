import { readFileSync } from 'node:fs';
import path from 'node:path';
import { invalidInput } from '../../errors';
import type { MemoryStore } from '../../memory/memoryStore';
import type { SqlReader } from '../../store/sqlAccess';
import { sessionGoal, summaryMemory } from '../sessionFacts';
import { workspacePath } from '../sessionRows';
import { linkCommits } from './commitLinks';
import { blameLine } from './gitCommits';
import { sessionAddedLines, significant } from './sessionEdits';

/** Sessions named in one answer at most (the most recent first). */
const MAX_SESSIONS = 10;

export interface WhySession {
  id: string;
  agent: string;
  startedAt: number | null;
  branch: string | null;
  /** What the user first asked. */
  goal: string | null;
  summary: { id: string; content: string } | null;
  /** Conventions and decisions the user stated in the session (statedConventions.ts). */
  decisions: Array<{ id: string; kind: string; content: string }>;
  /** The commits that carry the session's edits of this file. */
  commits: Array<{ sha: string; subject: string; lines: number; committedAt: number }>;
}

export interface WhyAnswer {
  file: string;
  line: number | null;
  /** The commit that last changed the line (git blame); null when not committed or no line asked. */
  commit: { sha: string; subject: string; committedAt: number } | null;
  /**
   * How the sessions were found: `commit` (linked to the blamed commit), `line` (they added the
   * line's text, committed or not), `file` (they changed the file), `none`.
   */
  via: 'commit' | 'line' | 'file' | 'none';
  sessions: WhySession[];
}

/** `src/a.ts:12` -> file and line; a Windows drive letter's colon is not a line. */
export function parseTarget(target: string): { file: string; line?: number } {
  const m = /^(.+?):(\d+)$/.exec(target.trim());
  if (m && !/^[A-Za-z]$/.test(m[1] as string)) return { file: m[1] as string, line: Number(m[2]) };
  return { file: target.trim() };
}

/**
 * Which captured sessions (and the decisions stated in them) shaped a file, or one line of it, and
 * in which commits: the line is blamed, and the sessions linked to that commit answer; else the
 * sessions whose added lines hold the line's text (an edit not committed yet); else every session
 * that changed the file. Unless `relink` is off (a read-only caller), the file's sessions are
 * linked again first, so a commit made since the last capture run counts.
 */
export async function explainLines(
  store: MemoryStore,
  root: string,
  target: { file: string; line?: number | undefined },
  options: { relink: boolean } = { relink: true },
): Promise<WhyAnswer> {
  const file = workspacePath(target.file, root, root);
  if (path.isAbsolute(file)) throw invalidInput(`file: ${target.file} is outside the workspace ${root}`);
  const line = target.line ?? null;
  if (line !== null && !(Number.isInteger(line) && line >= 1)) {
    throw invalidInput(`line: must be a line number of 1 or more; got ${line}`);
  }
  const touching = store.read((r) => sessionsTouching(r, file));
  if (options.relink) await linkCommits(store, root, touching, Date.now());
  const answer: WhyAnswer = { file, line, commit: null, via: 'none', sessions: [] };
  let ids: string[] = [];
  if (line !== null) {
    const blamed = await blameLine(root, file, line);
    const sha = blamed?.sha;
    if (blamed !== undefined && sha !== undefined) {
      answer.commit = { sha, subject: blamed.subject ?? '', committedAt: blamed.committedAt ?? 0 };
      ids = store.read((r) =>
        r
          .all<{ id: string }>(
            `SELECT l.session_id AS id FROM capture_commit_links l JOIN capture_sessions s ON s.id = l.session_id
             WHERE l.commit_sha = ? GROUP BY l.session_id ORDER BY max(l.path = ?) DESC, s.started_at DESC`,
            [sha, file],
          )
          .map((s) => s.id),
      );
      if (ids.length > 0) answer.via = 'commit';
    }
    if (ids.length === 0) {
      const text = significant(lineOf(root, file, line) ?? '');
      if (text !== undefined)
        ids = touching.filter((id) =>
          store.read((r) => sessionAddedLines(r, id).get(file)?.has(text) === true),
        );
      if (ids.length > 0) answer.via = 'line';
    }
  }
  if (ids.length === 0 && touching.length > 0) {
    ids = touching;
    answer.via = 'file';
  }
  answer.sessions = store.read((r) => ids.slice(0, MAX_SESSIONS).map((id) => whySession(r, id, file)));
  return answer;
}

/** Sessions that changed the file, the most recent first. */
function sessionsTouching(r: SqlReader, file: string): string[] {
  return r
    .all<{ id: string }>(
      `SELECT s.id FROM capture_sessions s
       WHERE EXISTS (SELECT 1 FROM capture_file_touches f WHERE f.session_id = s.id AND f.path = ? AND f.action != 'read')
       ORDER BY coalesce(s.started_at, 0) DESC, s.id`,
      [file],
    )
    .map((s) => s.id);
}

function lineOf(root: string, file: string, line: number): string | undefined {
  try {
    return readFileSync(path.join(root, file), 'utf8').split('\n')[line - 1];
  } catch {
    return undefined;
  }
}

function whySession(r: SqlReader, id: string, file: string): WhySession {
  const s = r.get<{ agent: string; started_at: number | null; git_branch: string | null }>(
    'SELECT agent, started_at, git_branch FROM capture_sessions WHERE id = ?',
    [id],
  );
  return {
    id,
    agent: s?.agent ?? 'unknown',
    startedAt: s?.started_at ?? null,
    branch: s?.git_branch ?? null,
    goal: sessionGoal(r, id) ?? null,
    summary: summaryMemory(r, id) ?? null,
    decisions: r.all(
      `SELECT id, kind, content FROM memories WHERE session = ? AND superseded_at IS NULL AND status = 'active'
       AND kind IN ('decision', 'preference', 'error-pattern', 'procedure', 'negative') AND tags LIKE '%"capture"%'
       ORDER BY recorded_at LIMIT 10`,
      [id],
    ),
    commits: r.all(
      `SELECT commit_sha AS sha, subject, lines, committed_at AS committedAt FROM capture_commit_links
       WHERE session_id = ? AND path = ? ORDER BY committed_at, commit_sha`,
      [id, file],
    ),
  };
}
