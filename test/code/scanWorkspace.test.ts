import assert from 'node:assert/strict';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readFileIndex } from '../../engine/code/codeIndexReader';
import { scanWorkspace } from '../../engine/code/scanWorkspace';
import type { ScanWorkspaceOptions } from '../../engine/code/scanWorkspace';
import type { DurableDatabase } from '../../engine/store/durableDatabase';
import { grammarsDirectory, openCodeIndex, workspaceWith } from './codeWorkspace';
import { TYPESCRIPT } from './languageFixtures';
import type { FixtureFiles } from './languageFixtures';

const scan = (db: DurableDatabase, root: string, extra: Partial<ScanWorkspaceOptions> = {}) =>
  scanWorkspace({ store: db, root, grammarsDirectory: grammarsDirectory(), runner: 'inline', ...extra });

const count = (db: DurableDatabase, table: string) =>
  db.read((r) => r.value<number>(`SELECT count(*) FROM ${table}`));

function manyFiles(n: number): FixtureFiles {
  const files: FixtureFiles = {};
  for (let i = 0; i < n; i++) {
    files[`src/m${String(i).padStart(3, '0')}.ts`] =
      `export function f${i}(x: number): number {\n  return x + ${i};\n}\n`;
  }
  return files;
}

describe('scanWorkspace into the code index', () => {
  it('records files, symbols, imports, references and manifests', async () => {
    const db = await openCodeIndex();
    const root = workspaceWith({
      ...TYPESCRIPT,
      'package.json': JSON.stringify({ name: 'svc', scripts: { test: 'x' } }),
    });
    const report = await scan(db, root);
    assert.deepEqual(report.changes.added.sort(), [...Object.keys(TYPESCRIPT), 'package.json'].sort());
    const service = db.read((r) => readFileIndex(r, 'src/service.ts'));
    assert.equal(service?.language, 'typescript');
    assert.ok(service?.symbols.some((s) => s.name === 'WindowLimiter' && s.kind === 'class' && s.exported));
    assert.equal(service?.imports.find((i) => i.specifier === './helpers')?.resolved, 'src/helpers.ts');
    assert.equal(db.read((r) => readFileIndex(r, 'package.json'))?.manifest?.data.scripts?.test, 'x');
    assert.ok((count(db, 'code_references') ?? 0) > 0);
    await db.close();
  });

  it('rescans only what changed: edit, delete, rename, add', async () => {
    const db = await openCodeIndex();
    const root = workspaceWith(TYPESCRIPT);
    await scan(db, root);
    const untouched = await scan(db, root);
    assert.deepEqual(untouched.changes, { added: [], changed: [], deleted: [], renamed: [], unchanged: 5 });

    writeFileSync(path.join(root, 'src/helpers.ts'), 'export function helper2(): void {}\n');
    rmSync(path.join(root, 'src/lib/index.ts'));
    renameSync(path.join(root, 'src/lib/math.ts'), path.join(root, 'src/lib/arith.ts'));
    writeFileSync(
      path.join(root, 'src/extra.ts'),
      "import { add } from './lib/arith';\nexport const x = add(1, 2);\n",
    );
    const report = await scan(db, root);
    assert.deepEqual(report.changes.changed, ['src/helpers.ts']);
    assert.deepEqual(report.changes.deleted, ['src/lib/index.ts']);
    assert.deepEqual(report.changes.renamed, [{ from: 'src/lib/math.ts', to: 'src/lib/arith.ts' }]);
    assert.deepEqual(report.changes.added, ['src/extra.ts']);
    assert.equal(report.changes.unchanged, 2);

    const helpers = db.read((r) => readFileIndex(r, 'src/helpers.ts'));
    assert.deepEqual(
      helpers?.symbols.map((s) => s.name),
      ['helper2'],
    );
    assert.equal(
      db.read((r) => readFileIndex(r, 'src/lib/index.ts')),
      undefined,
    );
    // The renamed file kept its symbols; imports whose text names the old path are now unresolved.
    assert.deepEqual(
      db.read((r) => readFileIndex(r, 'src/lib/arith.ts'))?.symbols.map((s) => s.name),
      ['add'],
    );
    const service = db.read((r) => readFileIndex(r, 'src/service.ts'));
    assert.equal(service?.imports.find((i) => i.specifier === '@lib/math')?.resolved, null);
    assert.equal(service?.imports.find((i) => i.specifier === './lib')?.resolved, null);
    assert.equal(db.read((r) => readFileIndex(r, 'src/extra.ts'))?.imports[0]?.resolved, 'src/lib/arith.ts');
    assert.equal(
      db.read((r) => r.value<number>("SELECT count(*) FROM code_files WHERE path LIKE 'src/lib/%'")),
      1,
    );
    await db.close();
  });

  it('an edit that keeps size and mtime is still seen when mtimes are not trusted', async () => {
    const db = await openCodeIndex();
    const root = workspaceWith({ 'a.ts': 'export const a = 1;\n' });
    await scan(db, root);
    writeFileSync(path.join(root, 'a.ts'), 'export const b = 2;\n');
    const report = await scan(db, root, { trustMtime: false });
    assert.deepEqual(report.changes.changed, ['a.ts']);
    await db.close();
  });

  it('an aborted scan keeps what it recorded, deletes nothing, and the next scan resumes', async () => {
    const db = await openCodeIndex();
    const root = workspaceWith(manyFiles(80));
    await scan(db, root);
    rmSync(path.join(root, 'src/m079.ts'));
    for (let i = 0; i < 79; i++)
      writeFileSync(path.join(root, `src/m${String(i).padStart(3, '0')}.ts`), `export const v${i} = ${i};\n`);

    const controller = new AbortController();
    await assert.rejects(
      scan(db, root, {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase === 'scan' && p.done > 0) controller.abort();
        },
      }),
      { name: 'AbortError' },
    );
    const statuses = db.read((r) =>
      r.all<{ status: string }>('SELECT status FROM code_scans ORDER BY generation'),
    );
    assert.deepEqual(
      statuses.map((s) => s.status),
      ['complete', 'aborted'],
    );
    // The batch written before the abort is complete: each recorded file has its new symbols.
    const rewritten = db.read((r) =>
      r.all<{ path: string; names: string }>(
        `SELECT f.path, group_concat(s.name) AS names FROM code_files f JOIN code_symbols s ON s.file_id = f.id
          WHERE f.generation = 2 GROUP BY f.id`,
      ),
    );
    assert.ok(
      rewritten.length > 0 && rewritten.length < 79,
      `${rewritten.length} files recorded before the abort`,
    );
    for (const row of rewritten) assert.match(row.names, /^v\d+$/);
    assert.equal(count(db, 'code_files'), 80, 'an aborted scan deletes nothing');

    const resumed = await scan(db, root);
    assert.equal(resumed.changes.unchanged, rewritten.length);
    assert.equal(resumed.changes.changed.length, 79 - rewritten.length);
    assert.deepEqual(resumed.changes.deleted, ['src/m079.ts']);
    assert.equal(count(db, 'code_files'), 79);
    await db.close();
  });

  it('a scan killed mid-way is reported as interrupted by the next one', async () => {
    const db = await openCodeIndex();
    const root = workspaceWith(manyFiles(3));
    // What a killed process leaves: a generation still marked running.
    db.write((tx) =>
      tx.run("INSERT INTO code_scans (generation, root, status, started_at) VALUES (1, ?, 'running', 0)", [
        root,
      ]),
    );
    const report = await scan(db, root);
    assert.deepEqual(report.interruptedScans, [1]);
    assert.equal(report.generation, 2);
    assert.equal(report.changes.added.length, 3);
    await db.close();
  });

  it('runs in a worker thread with progress events, and cancels there', async () => {
    const db = await openCodeIndex();
    const root = workspaceWith({ ...TYPESCRIPT, ...manyFiles(60) });
    const phases = new Set<string>();
    const report = await scan(db, root, { runner: 'worker', onProgress: (p) => phases.add(p.phase) });
    assert.equal(report.changes.added.length, 65);
    assert.deepEqual([...phases].sort(), ['scan', 'walk']);
    assert.equal(count(db, 'code_files'), 65);

    for (let i = 0; i < 60; i++)
      writeFileSync(path.join(root, `src/m${String(i).padStart(3, '0')}.ts`), `export const w${i} = 1;\n`);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(scan(db, root, { runner: 'worker', signal: controller.signal }), {
      name: 'AbortError',
    });
    assert.equal(
      db.read((r) => r.value<string>('SELECT status FROM code_scans ORDER BY generation DESC LIMIT 1')),
      'aborted',
    );
    await db.close();
  });
});
