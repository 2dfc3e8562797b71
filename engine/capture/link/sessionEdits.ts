import type { SqlReader } from '../../store/sqlAccess';
import type { Hunk } from '../events';

/**
 * A line worth matching: trimmed, inner whitespace collapsed (a formatter may re-indent), at least
 * 8 characters with a letter or digit. Braces, `return;` and blank lines are in every commit and
 * would link anything to anything.
 */
export function significant(line: string): string | undefined {
  const flat = line.replace(/\s+/g, ' ').trim();
  return flat.length >= 8 && /[A-Za-z0-9]/.test(flat) ? flat : undefined;
}

/** The significant lines of a list, each once. */
export function lineSet(lines: Iterable<string>): Set<string> {
  const set = new Set<string>();
  for (const line of lines) {
    const s = significant(line);
    if (s !== undefined) set.add(s);
  }
  return set;
}

interface TouchRow {
  path: string;
  hunks: string | null;
  arguments: string | null;
}

/** A session's added lines on one file: all of them, and each edit's own. */
export interface FileEdits {
  all: Set<string>;
  edits: Array<Set<string>>;
}

/**
 * The lines a session added, per workspace-relative file, in all and edit by edit: the `+` lines
 * of its edits' hunks, and the content of a file it wrote whole (a create has no hunks: its
 * call's `content` argument). Files outside the workspace (absolute paths) are left out: no commit
 * of this repository has them.
 */
export function sessionEdits(r: SqlReader, sessionId: string): Map<string, FileEdits> {
  const rows = r.all<TouchRow>(
    `SELECT f.path, f.hunks, c.arguments FROM capture_file_touches f
     LEFT JOIN capture_tool_calls c ON c.session_id = f.session_id AND c.call_id = f.call_id
     WHERE f.session_id = ? AND f.action IN ('edit', 'create') AND substr(f.path, 1, 1) != '/'
     ORDER BY f.id`,
    [sessionId],
  );
  const files = new Map<string, FileEdits>();
  for (const row of rows) {
    const edit = lineSet(addedLines(row));
    if (edit.size === 0) continue;
    const file = files.get(row.path) ?? { all: new Set<string>(), edits: [] };
    for (const line of edit) file.all.add(line);
    file.edits.push(edit);
    files.set(row.path, file);
  }
  return files;
}

/** The lines a session added, per workspace-relative file (sessionEdits, all of them). */
export function sessionAddedLines(r: SqlReader, sessionId: string): Map<string, Set<string>> {
  return new Map([...sessionEdits(r, sessionId)].map(([path, file]) => [path, file.all]));
}

function addedLines(row: TouchRow): string[] {
  if (row.hunks !== null) {
    const hunks = parseJson(row.hunks);
    if (!Array.isArray(hunks)) return [];
    return (hunks as Hunk[]).flatMap((h) =>
      Array.isArray(h.lines) ? h.lines.filter((l) => l.startsWith('+')).map((l) => l.slice(1)) : [],
    );
  }
  const args = row.arguments === null ? undefined : parseJson(row.arguments);
  const content =
    typeof args === 'object' && args !== null ? (args as Record<string, unknown>)['content'] : undefined;
  return typeof content === 'string' ? content.split('\n') : [];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
