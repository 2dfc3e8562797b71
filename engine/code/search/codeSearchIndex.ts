import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SqlReader } from '../../store/sqlAccess';
import { codeTerms } from './codeTerms';
import { FieldIndex } from './fieldIndex';
import { pathRole } from './pathRoles';
import type { PathRole } from './pathRoles';

export interface IndexedFile {
  path: string;
  role: PathRole;
  /** True when a grammar parsed it (source code), false for text, docs and data. */
  parsed: boolean;
}

export interface IndexedSymbol {
  file: number;
  name: string;
  container: string | null;
  kind: string;
  line: number;
  endLine: number;
}

/**
 * The code channel's view of the code index: one document per indexed file (its path, the names,
 * signatures and doc lines of its symbols, and its text) and one per symbol (its name and
 * container, signature, doc line and its lines of text). The text is read from the workspace,
 * which the index describes but does not copy.
 */
export interface CodeSearchIndex {
  files: IndexedFile[];
  fileIndex: FieldIndex;
  symbols: IndexedSymbol[];
  symbolIndex: FieldIndex;
}

interface FileRow {
  id: number;
  path: string;
  parsed: number;
}

interface SymbolRow {
  fileId: number;
  name: string;
  kind: string;
  signature: string;
  doc: string | null;
  startLine: number;
  endLine: number;
  container: string | null;
}

export function buildCodeSearchIndex(r: SqlReader, root: string | undefined): CodeSearchIndex {
  const rows = r.all<FileRow>('SELECT id, path, parsed FROM code_files ORDER BY path');
  const symbolsOf = new Map<number, SymbolRow[]>();
  for (const row of r.all<SymbolRow>(
    `SELECT file_id AS fileId, name, kind, signature, doc, start_line AS startLine, end_line AS endLine, container
       FROM code_symbols ORDER BY file_id, start_line, id`,
  )) {
    const list = symbolsOf.get(row.fileId) ?? [];
    list.push(row);
    symbolsOf.set(row.fileId, list);
  }
  const index: CodeSearchIndex = {
    files: [],
    fileIndex: new FieldIndex(),
    symbols: [],
    symbolIndex: new FieldIndex(),
  };
  for (const row of rows) {
    const symbols = symbolsOf.get(row.id) ?? [];
    const text = readText(root, row.path);
    const file = index.files.length;
    index.files.push({ path: row.path, role: pathRole(row.path), parsed: row.parsed === 1 });
    index.fileIndex.add({
      path: codeTerms(row.path),
      names: symbols.flatMap((s) => codeTerms(s.name)),
      signatures: symbols.flatMap((s) => codeTerms(s.signature)),
      docs: symbols.flatMap((s) => (s.doc ? codeTerms(s.doc) : [])),
      body: codeTerms(text),
    });
    const lines = text.split('\n');
    for (const s of symbols) {
      index.symbols.push({
        file,
        name: s.name,
        container: s.container,
        kind: s.kind,
        line: s.startLine,
        endLine: s.endLine,
      });
      index.symbolIndex.add({
        names: codeTerms(s.container ? `${s.container} ${s.name}` : s.name),
        signatures: codeTerms(s.signature),
        docs: s.doc ? codeTerms(s.doc) : [],
        body: codeTerms(lines.slice(s.startLine - 1, s.endLine).join('\n')),
      });
    }
  }
  index.fileIndex.pack();
  index.symbolIndex.pack();
  return index;
}

/**
 * A file deleted or unreadable since the scan, or any file of a host without the workspace (a
 * database opened without its root), is searched by what the index recorded of it.
 */
function readText(root: string | undefined, relative: string): string {
  if (root === undefined) return '';
  try {
    return readFileSync(path.join(root, relative), 'utf8');
  } catch {
    return '';
  }
}

const cached = new WeakMap<object, { version: string; root: string | undefined; index: CodeSearchIndex }>();

/**
 * The state of the indexed files: every write of a file (added, changed, renamed) stamps it with
 * the scan's generation, newer than any before, and a deletion lowers the count, so the newest
 * stamp and the count change whenever the files do, and not when a rescan found nothing (a save
 * that changed no content, a watcher's burst). Undefined while a scan runs.
 */
function filesVersion(r: SqlReader): string | undefined {
  const last = r.get<{ status: string }>('SELECT status FROM code_scans ORDER BY generation DESC LIMIT 1');
  if (last?.status === 'running') return undefined;
  const files = r.get<{ newest: number | null; count: number }>(
    'SELECT max(generation) AS newest, count(*) AS count FROM code_files',
  );
  return `${files?.newest ?? 0}:${files?.count ?? 0}`;
}

/**
 * The index for the code index's current state, rebuilt only after a scan changed the files
 * (reading every file costs about as much as ranking many queries). Not cached while a scan runs.
 */
export function codeSearchIndexOf(owner: object, r: SqlReader, root: string | undefined): CodeSearchIndex {
  const version = filesVersion(r);
  const hit = cached.get(owner);
  if (version !== undefined && hit?.version === version && hit.root === root) return hit.index;
  const index = buildCodeSearchIndex(r, root);
  if (version !== undefined) cached.set(owner, { version, root, index });
  else cached.delete(owner);
  return index;
}
