import type { SqlReader } from '../store/sqlAccess';

export interface SymbolDefinition {
  name: string;
  container: string | null;
  signature: string;
  file: string;
}

/** What a check asks of the code index (empty before any scan). */
export interface SymbolIndex {
  /** The definitions named `name`. */
  definitionsOf(name: string): readonly SymbolDefinition[];
  /** The first indexed file whose path ends with `/${fileName}` (a bare file name written in a memory). */
  fileNamed(fileName: string): string | undefined;
}

const DEFINITIONS =
  'SELECT s.name, s.container, s.signature, f.path AS file FROM code_symbols s JOIN code_files f ON f.id = s.file_id';

/** The whole index in memory: a full check asks about most names, so one read beats one query each. */
export function readSymbolIndex(reader: SqlReader): SymbolIndex {
  const definitions = new Map<string, SymbolDefinition[]>();
  for (const row of reader.all<SymbolDefinition>(DEFINITIONS)) {
    const list = definitions.get(row.name);
    if (list) list.push(row);
    else definitions.set(row.name, [row]);
  }
  const files = reader.all<{ path: string }>('SELECT path FROM code_files ORDER BY path').map((r) => r.path);
  return {
    definitionsOf: (name) => definitions.get(name) ?? [],
    fileNamed: (fileName) => files.find((file) => file.endsWith(`/${fileName}`)),
  };
}

/**
 * The index read name by name (through its index on names), each answer kept for the check: a
 * check of the few memories a scan's changes touch asks about a few names, not the whole index.
 */
export function lazySymbolIndex(read: <T>(fn: (reader: SqlReader) => T) => T): SymbolIndex {
  const definitions = new Map<string, SymbolDefinition[]>();
  const files = new Map<string, string | undefined>();
  return {
    definitionsOf(name) {
      let list = definitions.get(name);
      if (!list)
        definitions.set(
          name,
          (list = read((r) => r.all<SymbolDefinition>(`${DEFINITIONS} WHERE s.name = ?`, [name]))),
        );
      return list;
    },
    fileNamed(fileName) {
      if (!files.has(fileName)) {
        // LIKE narrows (ignoring case for ASCII), endsWith decides.
        const escaped = fileName.replace(/[\\%_]/g, (c) => `\\${c}`);
        const candidates = read((r) =>
          r.all<{ path: string }>("SELECT path FROM code_files WHERE path LIKE ? ESCAPE '\\' ORDER BY path", [
            `%/${escaped}`,
          ]),
        );
        files.set(fileName, candidates.find((c) => c.path.endsWith(`/${fileName}`))?.path);
      }
      return files.get(fileName);
    },
  };
}
