import type { SqlReader } from '../store/sqlAccess';

export interface SymbolHit {
  name: string;
  kind: string;
  signature: string;
  doc: string | null;
  path: string;
  startLine: number;
  endLine: number;
  exported: boolean;
  container: string | null;
}

export interface FileHit {
  path: string;
  language: string | null;
  lines: number;
  size: number;
  symbols: number;
}

/** `%` and `_` in user text are literal in these searches. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Symbols whose name (or `Container.name`) contains the query, case-insensitively: exact names
 * first, then prefixes, then exported before private, then shorter names.
 */
export function searchSymbols(r: SqlReader, query: string, limit: number): SymbolHit[] {
  const q = query.trim().toLowerCase();
  const rows = r.all<Omit<SymbolHit, 'exported'> & { exported: number }>(
    `SELECT s.name, s.kind, s.signature, s.doc, f.path, s.start_line AS startLine, s.end_line AS endLine,
            s.exported, s.container
     FROM code_symbols s JOIN code_files f ON f.id = s.file_id
     WHERE lower(s.name) LIKE ? ESCAPE '\\' OR lower(coalesce(s.container || '.', '') || s.name) LIKE ? ESCAPE '\\'
     ORDER BY (lower(s.name) = ?) DESC, (lower(s.name) LIKE ? ESCAPE '\\') DESC, s.exported DESC, length(s.name), f.path, s.start_line
     LIMIT ?`,
    [likePattern(q), likePattern(q), q, `${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, limit],
  );
  return rows.map((row) => ({ ...row, exported: row.exported === 1 }));
}

/** Indexed files whose path contains the query; file-name matches before directory matches. */
export function searchFiles(r: SqlReader, query: string, limit: number): FileHit[] {
  const q = query.trim().toLowerCase();
  return r.all<FileHit>(
    `SELECT f.path, f.language, f.lines, f.size,
            (SELECT count(*) FROM code_symbols s WHERE s.file_id = f.id) AS symbols
     FROM code_files f
     WHERE lower(f.path) LIKE ? ESCAPE '\\'
     ORDER BY (instr(lower(replace(f.path, rtrim(f.path, replace(f.path, '/', '')), '')), ?) > 0) DESC, length(f.path), f.path
     LIMIT ?`,
    [likePattern(q), q, limit],
  );
}
