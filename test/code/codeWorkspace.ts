import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { codeIndexMigration } from '../../engine/code/schema';
import { silentLogger } from '../../engine/host';
import { DurableDatabase } from '../../engine/store/durableDatabase';
import { loadSqlJs } from '../../engine/store/sqlite';
import { SQL_WASM_PATH, tempDir } from '../support/temp';
import type { FixtureFiles } from './languageFixtures';

const repoRoot = path.resolve(__dirname, '../..');

/**
 * grammars/ as the build lays it out: the query files are in git, the .wasm files are copied by
 * scripts/copyGrammars.mjs, run here once if a fresh checkout has not built yet.
 */
export function grammarsDirectory(): string {
  const directory = path.join(repoRoot, 'grammars');
  if (!existsSync(path.join(directory, 'web-tree-sitter.wasm'))) {
    const copy = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/copyGrammars.mjs')], {
      encoding: 'utf8',
    });
    if (copy.status !== 0) throw new Error(`copyGrammars failed: ${copy.stderr}`);
  }
  return directory;
}

/** A temp workspace holding the given files. */
export function workspaceWith(files: FixtureFiles): string {
  const root = tempDir('engram-code-');
  writeFiles(root, files);
  return root;
}

export function writeFiles(root: string, files: FixtureFiles): void {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** A real durable engine database with only the code index migration, in a temp directory. */
export async function openCodeIndex(): Promise<DurableDatabase> {
  return DurableDatabase.open({
    path: path.join(tempDir('engram-codedb-'), 'memory.db'),
    sql: await loadSqlJs(SQL_WASM_PATH),
    logger: silentLogger,
    clock: Date.now,
    migrations: [codeIndexMigration(1)],
    snapshot: { idleMs: 60_000 },
  });
}
