import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import { resolveImport } from './importResolver';
import { grammarFor } from './languages';
import type { ResolveContext } from './resolveContext';
import type { KnownFile } from './scanProtocol';
import type { ChangeSet, FileScanResult, ManifestKind, RenamedFile } from './types';
import type { WriteOptions } from '../store/durableDatabase';

/** What the code index needs from the engine's database: DurableDatabase satisfies it. */
export interface CodeIndexStore {
  read<T>(fn: (reader: SqlReader) => T): T;
  write<T>(fn: (writer: SqlWriter) => T, options?: WriteOptions): T;
}

export function readKnownFiles(reader: SqlReader): KnownFile[] {
  return reader.all<KnownFile>(
    'SELECT path, content_hash AS contentHash, size, mtime_ms AS mtimeMs FROM code_files ORDER BY path',
  );
}

/** Well under SQLite's limit on bound parameters, whatever a file watcher sends at once. */
const PATHS_PER_QUERY = 500;

/** The indexed files at the given scopes (see scanScopes): what a targeted scan compares with. */
export function readKnownFilesUnder(reader: SqlReader, scopes: readonly string[]): KnownFile[] {
  if (scopes.includes('')) return readKnownFiles(reader);
  // Lookups on the path index (an OR of the two forms would scan the whole table once per
  // scope). A scope indexed as a file has no indexed files below it; for the others, the range
  // [scope/, scope0) is the subtree ('0' is the character after '/').
  const columns = 'path, content_hash AS contentHash, size, mtime_ms AS mtimeMs';
  const files: KnownFile[] = [];
  for (let start = 0; start < scopes.length; start += PATHS_PER_QUERY) {
    const chunk = scopes.slice(start, start + PATHS_PER_QUERY);
    files.push(
      ...reader.all<KnownFile>(
        `SELECT ${columns} FROM code_files WHERE path IN (${chunk.map(() => '?').join(', ')})`,
        chunk,
      ),
    );
  }
  const asFiles = new Set(files.map((f) => f.path));
  for (const scope of scopes) {
    if (asFiles.has(scope)) continue;
    files.push(
      ...reader.all<KnownFile>(`SELECT ${columns} FROM code_files WHERE path >= ? AND path < ?`, [
        `${scope}/`,
        `${scope}0`,
      ]),
    );
  }
  return files;
}

/**
 * Opens a scan generation. Scans still marked running were killed before they finished: they are
 * marked 'interrupted' and their generations returned (their recorded files are complete; the
 * new scan simply finds them unchanged and goes on with the rest).
 */
export function beginScan(
  writer: SqlWriter,
  root: string,
  now: number,
): { generation: number; interrupted: number[] } {
  const interrupted = writer
    .all<{ generation: number }>("SELECT generation FROM code_scans WHERE status = 'running'")
    .map((row) => row.generation);
  writer.run("UPDATE code_scans SET status = 'interrupted' WHERE status = 'running'");
  const generation = (writer.value<number>('SELECT max(generation) FROM code_scans') ?? 0) + 1;
  writer.run("INSERT INTO code_scans (generation, root, status, started_at) VALUES (?, ?, 'running', ?)", [
    generation,
    root,
    now,
  ]);
  return { generation, interrupted };
}

export function finishScan(
  writer: SqlWriter,
  generation: number,
  status: 'complete' | 'aborted',
  now: number,
  changes: ChangeSet,
): void {
  const stats = {
    added: changes.added.length,
    changed: changes.changed.length,
    deleted: changes.deleted.length,
    renamed: changes.renamed.length,
    unchanged: changes.unchanged,
  };
  writer.run('UPDATE code_scans SET status = ?, finished_at = ?, stats = ? WHERE generation = ?', [
    status,
    now,
    JSON.stringify(stats),
    generation,
  ]);
}

/** Records files with everything extracted from them; call inside one write so each file is all or nothing. */
export function writeFiles(writer: SqlWriter, generation: number, files: readonly FileScanResult[]): void {
  for (const file of files) {
    const id = upsertFile(writer, generation, file);
    for (const s of file.symbols) {
      writer.run(
        `INSERT INTO code_symbols (file_id, name, kind, signature, doc, start_line, end_line, exported, container)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, s.name, s.kind, s.signature, s.doc, s.startLine, s.endLine, s.exported ? 1 : 0, s.container],
      );
    }
    for (const i of file.imports) {
      writer.run('INSERT INTO code_imports (file_id, specifier, resolved_path, line) VALUES (?, ?, ?, ?)', [
        id,
        i.specifier,
        i.resolved,
        i.line,
      ]);
    }
    if (Object.keys(file.references).length > 0) {
      writer.run('INSERT INTO code_references (file_id, names) VALUES (?, ?)', [
        id,
        JSON.stringify(file.references),
      ]);
    }
    if (file.manifest) {
      writer.run('INSERT INTO code_manifests (file_id, kind, name, data) VALUES (?, ?, ?, ?)', [
        id,
        file.manifest.kind,
        file.manifest.name,
        JSON.stringify(file.manifest.data),
      ]);
    }
  }
}

function upsertFile(writer: SqlWriter, generation: number, file: FileScanResult): number {
  const values = [
    file.language,
    file.contentHash,
    file.size,
    file.mtimeMs,
    file.lines,
    file.parsed ? 1 : 0,
    file.hasErrors ? 1 : 0,
    generation,
  ];
  const existing = writer.value<number>('SELECT id FROM code_files WHERE path = ?', [file.path]);
  if (existing === undefined) {
    writer.run(
      `INSERT INTO code_files (language, content_hash, size, mtime_ms, lines, parsed, has_errors, generation, path)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [...values, file.path],
    );
    return writer.value<number>('SELECT id FROM code_files WHERE path = ?', [file.path]) ?? 0;
  }
  removeFileContents(writer, existing);
  writer.run(
    `UPDATE code_files SET language = ?, content_hash = ?, size = ?, mtime_ms = ?, lines = ?, parsed = ?,
       has_errors = ?, generation = ? WHERE id = ?`,
    [...values, existing],
  );
  return existing;
}

function removeFileContents(writer: SqlWriter, id: number): void {
  for (const table of ['code_symbols', 'code_imports', 'code_references', 'code_manifests']) {
    writer.run(`DELETE FROM ${table} WHERE file_id = ?`, [id]);
  }
}

/** Unchanged content with a new mtime: remember the mtime so the next scan skips the read. */
export function touchFiles(writer: SqlWriter, files: readonly KnownFile[]): void {
  for (const file of files) {
    writer.run('UPDATE code_files SET size = ?, mtime_ms = ? WHERE path = ?', [
      file.size,
      file.mtimeMs,
      file.path,
    ]);
  }
}

/**
 * A rename keeps the file's symbols (same content). Imports that named the old path are not
 * moved along: their text still names it, so they are resolved again (reresolveImports), which
 * finds the new file only if the importer was updated too.
 */
export function renameFiles(writer: SqlWriter, generation: number, renames: readonly RenamedFile[]): void {
  for (const { from, to } of renames) {
    writer.run('UPDATE code_files SET path = ?, generation = ? WHERE path = ?', [to, generation, from]);
    writer.run('UPDATE code_imports SET resolved_path = NULL WHERE resolved_path = ?', [from]);
  }
}

export function deleteFiles(writer: SqlWriter, paths: readonly string[]): void {
  for (const path of paths) {
    const id = writer.value<number>('SELECT id FROM code_files WHERE path = ?', [path]);
    if (id === undefined) continue;
    removeFileContents(writer, id);
    writer.run('DELETE FROM code_files WHERE id = ?', [id]);
    writer.run('UPDATE code_imports SET resolved_path = NULL WHERE resolved_path = ?', [path]);
  }
}

/**
 * Resolves again the imports that may now point elsewhere: unresolved ones (their target may
 * have appeared) and those of the given files (renamed files' relative imports moved with them),
 * or, with `all` (a tsconfig, go.mod or Cargo.toml changed), every import. Only rows whose
 * answer changed are written.
 */
export function reresolveImports(
  writer: SqlWriter,
  context: ResolveContext,
  movedFiles: readonly string[],
  all = false,
): number {
  type ImportRow = { id: number; specifier: string; resolved: string | null; path: string };
  const select = `SELECT i.id, i.specifier, i.resolved_path AS resolved, f.path
       FROM code_imports i JOIN code_files f ON f.id = i.file_id`;
  // Unless everything is asked for, only unresolved imports and those of moved files can change:
  // select just those (reading every import of a large index held the host's thread for ~100 ms).
  let rows: ImportRow[];
  if (all) rows = writer.all<ImportRow>(select);
  else {
    rows = writer.all<ImportRow>(`${select} WHERE i.resolved_path IS NULL`);
    const moved = [...new Set(movedFiles)];
    for (let start = 0; start < moved.length; start += 500) {
      const chunk = moved.slice(start, start + 500);
      rows.push(
        ...writer.all<ImportRow>(
          `${select} WHERE i.resolved_path IS NOT NULL AND f.path IN (${chunk.map(() => '?').join(', ')})`,
          chunk,
        ),
      );
    }
  }
  let updated = 0;
  for (const row of rows) {
    const grammar = grammarFor(row.path);
    if (!grammar) continue;
    const resolved = resolveImport(context, grammar, row.path, row.specifier);
    if (resolved === row.resolved) continue;
    writer.run('UPDATE code_imports SET resolved_path = ? WHERE id = ?', [resolved, row.id]);
    updated++;
  }
  return updated;
}

/** The indexed files whose manifest is of one of the kinds. */
export function indexedConfigPaths(reader: SqlReader, kinds: readonly ManifestKind[]): string[] {
  return reader
    .all<{ path: string }>(
      `SELECT f.path FROM code_manifests m JOIN code_files f ON f.id = m.file_id
        WHERE m.kind IN (${kinds.map(() => '?').join(', ')})`,
      [...kinds],
    )
    .map((row) => row.path);
}

export function indexedPaths(reader: SqlReader): string[] {
  return reader.all<{ path: string }>('SELECT path FROM code_files').map((row) => row.path);
}
