import type { SqlReader } from '../store/sqlAccess';
import type { CodeImport, CodeSymbol, ManifestData, ManifestKind, ManifestRecord, SymbolKind } from './types';

/** Everything the index holds about one file: the input of memory derivation. */
export interface FileIndex {
  path: string;
  language: string | null;
  size: number;
  lines: number;
  contentHash: string;
  hasErrors: boolean;
  symbols: CodeSymbol[];
  imports: CodeImport[];
  manifest: ManifestRecord | null;
}

interface FileRow {
  id: number;
  path: string;
  language: string | null;
  size: number;
  lines: number;
  contentHash: string;
  hasErrors: number;
}

interface SymbolRow {
  name: string;
  kind: SymbolKind;
  signature: string;
  doc: string | null;
  startLine: number;
  endLine: number;
  exported: number;
  container: string | null;
}

export function readFileIndex(reader: SqlReader, path: string): FileIndex | undefined {
  const file = reader.get<FileRow>(
    `SELECT id, path, language, size, lines, content_hash AS contentHash, has_errors AS hasErrors
       FROM code_files WHERE path = ?`,
    [path],
  );
  if (!file) return undefined;
  const symbols = reader
    .all<SymbolRow>(
      `SELECT name, kind, signature, doc, start_line AS startLine, end_line AS endLine, exported, container
         FROM code_symbols WHERE file_id = ? ORDER BY start_line, id`,
      [file.id],
    )
    .map((row) => ({ ...row, exported: row.exported === 1 }));
  const imports = reader.all<CodeImport>(
    'SELECT specifier, resolved_path AS resolved, line FROM code_imports WHERE file_id = ? ORDER BY line, id',
    [file.id],
  );
  const manifestRow = reader.get<{ kind: ManifestKind; name: string | null; data: string }>(
    'SELECT kind, name, data FROM code_manifests WHERE file_id = ?',
    [file.id],
  );
  return {
    path: file.path,
    language: file.language,
    size: file.size,
    lines: file.lines,
    contentHash: file.contentHash,
    hasErrors: file.hasErrors === 1,
    symbols,
    imports,
    manifest: manifestRow
      ? { kind: manifestRow.kind, name: manifestRow.name, data: JSON.parse(manifestRow.data) as ManifestData }
      : null,
  };
}

/** Identifier -> count of the identifiers a file uses, for the reference graph. */
export function readReferences(reader: SqlReader, path: string): Record<string, number> {
  const names = reader.value<string>(
    'SELECT r.names FROM code_references r JOIN code_files f ON f.id = r.file_id WHERE f.path = ?',
    [path],
  );
  return names ? (JSON.parse(names) as Record<string, number>) : {};
}
