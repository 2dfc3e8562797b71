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

interface ManifestColumns {
  parsed: number;
  manifestKind: ManifestKind | null;
  manifestName: string | null;
  manifestData: string | null;
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
  // The manifest joined in, and no symbol or import query for a file that was never parsed (two
  // thirds of a typescript-eslint scan: docs, JSON, fixtures): memory derivation reads every file.
  const file = reader.get<FileRow & ManifestColumns>(
    `SELECT f.id, f.path, f.language, f.size, f.lines, f.content_hash AS contentHash,
            f.has_errors AS hasErrors, f.parsed, m.kind AS manifestKind, m.name AS manifestName,
            m.data AS manifestData
       FROM code_files f LEFT JOIN code_manifests m ON m.file_id = f.id WHERE f.path = ?`,
    [path],
  );
  if (!file) return undefined;
  const symbols =
    file.parsed === 1
      ? reader
          .all<SymbolRow>(
            `SELECT name, kind, signature, doc, start_line AS startLine, end_line AS endLine, exported, container
               FROM code_symbols WHERE file_id = ? ORDER BY start_line, id`,
            [file.id],
          )
          .map((row) => ({ ...row, exported: row.exported === 1 }))
      : [];
  const imports =
    file.parsed === 1
      ? reader.all<CodeImport>(
          'SELECT specifier, resolved_path AS resolved, line FROM code_imports WHERE file_id = ? ORDER BY line, id',
          [file.id],
        )
      : [];
  const manifestRow =
    file.manifestKind === null
      ? undefined
      : { kind: file.manifestKind, name: file.manifestName, data: file.manifestData as string };
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
