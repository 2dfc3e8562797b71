import type { SqlReader } from '../store/sqlAccess';

export interface SymbolDefinition {
  name: string;
  container: string | null;
  signature: string;
  file: string;
}

/** The code index's definitions by name, and the files it indexed (empty before any scan). */
export interface SymbolIndex {
  definitions: Map<string, SymbolDefinition[]>;
  indexedFiles: Set<string>;
}

export function readSymbolIndex(reader: SqlReader): SymbolIndex {
  const definitions = new Map<string, SymbolDefinition[]>();
  for (const row of reader.all<SymbolDefinition>(
    'SELECT s.name, s.container, s.signature, f.path AS file FROM code_symbols s JOIN code_files f ON f.id = s.file_id',
  )) {
    const list = definitions.get(row.name);
    if (list) list.push(row);
    else definitions.set(row.name, [row]);
  }
  const indexedFiles = new Set(
    reader.all<{ path: string }>('SELECT path FROM code_files').map((r) => r.path),
  );
  return { definitions, indexedFiles };
}
