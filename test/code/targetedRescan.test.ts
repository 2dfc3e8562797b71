import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sourceWorkerScripts } from '../../engine/process/workerScripts';
import { ScanWorkerHost } from '../../engine/code/scanWorkerHost';
import { scanWorkspace } from '../../engine/code/scanWorkspace';
import type { ScanWorkspaceOptions } from '../../engine/code/scanWorkspace';
import { EngramError } from '../../engine/errors';
import type { DurableDatabase } from '../../engine/store/durableDatabase';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { grammarsDirectory, openCodeIndex, workspaceWith, writeFiles } from './codeWorkspace';
import type { FixtureFiles } from './languageFixtures';

const FILES: FixtureFiles = {
  '.gitignore': '*.gen.ts\n',
  'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['src/lib/*'] } } }),
  'src/limiter.ts': `/** Token-bucket rate limiting. */
export class RateLimiter {
  allow(key: string): boolean {
    return key.length > 0;
  }
}
`,
  'src/server.ts': `import { RateLimiter } from './limiter';
import { clamp } from '@lib/math';
import { later } from './later';
export function startServer(port: number): number {
  return clamp(port) + (new RateLimiter().allow('x') ? 1 : 0) + later();
}
`,
  'src/lib/math.ts': 'export function clamp(n: number): number {\n  return Math.max(0, n);\n}\n',
  'src/sub/one.ts': 'export const one = 1;\n',
  'src/sub/two.ts': 'export const two = 2;\n',
  'pkg/main.ts': 'export const main = 1;\n',
  'pkg/gen.ts': 'export const generatedHere = 1;\n',
};

async function workspaceHost(files: FixtureFiles = FILES): Promise<{ root: string; test: TestHost }> {
  const root = workspaceWith(files);
  const test = await openTestHost({
    code: { root, grammarsDirectory: grammarsDirectory(), runner: 'worker' },
  });
  after(() => test.host.close());
  await test.call('scan', {});
  return { root, test };
}

const indexedPaths = (test: TestHost) =>
  test.host.store.read((r) =>
    r.all<{ path: string }>('SELECT path FROM code_files ORDER BY path').map((f) => f.path),
  );

const resolvedImport = (test: TestHost, file: string, specifier: string) =>
  test.host.store.read((r) =>
    r.value<string | null>(
      `SELECT i.resolved_path FROM code_imports i JOIN code_files f ON f.id = i.file_id
        WHERE f.path = ? AND i.specifier = ?`,
      [file, specifier],
    ),
  );

async function memoryOf(test: TestHost, key: string) {
  const items = (await test.call('list', { layer: 'codebase', limit: 200 })).items;
  return items.find((m) => m.conflictKey === key);
}

describe('targeted rescan (scan with paths)', () => {
  it('an edited file is parsed again and its memory superseded; only it and the tsconfig are compared', async () => {
    const { root, test } = await workspaceHost();
    writeFileSync(
      path.join(root, 'src/limiter.ts'),
      '/** Sliding-window rate limiting. */\nexport class WindowLimiter {}\n',
    );
    const report = await test.call('scan', { paths: ['src/limiter.ts'] });
    const { added, changed, deleted, renamed, unchanged } = report.changes;
    assert.deepEqual(
      { added, changed, deleted, renamed },
      {
        added: [],
        changed: ['src/limiter.ts'],
        deleted: [],
        renamed: [],
      },
    );
    // The file and the workspace's one tsconfig (checked on every targeted scan): nothing else.
    assert.equal(changed.length + unchanged, 2);
    assert.match((await memoryOf(test, 'code:file:src/limiter.ts'))!.content, /WindowLimiter/);
    assert.equal(await memoryOf(test, 'code:symbol:src/limiter.ts#RateLimiter'), undefined);
    const symbols = await test.call('symbols', { query: 'WindowLimiter' });
    assert.equal(symbols[0]?.path, 'src/limiter.ts');
  });

  it('a deleted file (named by its absolute path) leaves the index and its memories are invalidated', async () => {
    const { root, test } = await workspaceHost();
    rmSync(path.join(root, 'src/limiter.ts'));
    const report = await test.call('scan', { paths: [path.join(root, 'src/limiter.ts')] });
    assert.deepEqual(report.changes.deleted, ['src/limiter.ts']);
    assert.ok(report.memories.invalidated >= 1);
    assert.ok(!indexedPaths(test).includes('src/limiter.ts'));
    assert.equal(await memoryOf(test, 'code:file:src/limiter.ts'), undefined);
    assert.equal(resolvedImport(test, 'src/server.ts', './limiter'), null);
  });

  it('an added file is indexed with memories, and imports that were waiting for it resolve', async () => {
    const { root, test } = await workspaceHost();
    assert.equal(resolvedImport(test, 'src/server.ts', './later'), null);
    writeFiles(root, { 'src/later.ts': 'export function later(): number {\n  return 2;\n}\n' });
    const report = await test.call('scan', { paths: ['src/later.ts'] });
    assert.deepEqual(report.changes.added, ['src/later.ts']);
    assert.ok(await memoryOf(test, 'code:file:src/later.ts'));
    assert.equal(resolvedImport(test, 'src/server.ts', './later'), 'src/later.ts');
  });

  it('an ignored path, a skipped directory and a symlink out of the root are not indexed', async () => {
    const { root, test } = await workspaceHost();
    writeFiles(root, {
      'src/api.gen.ts': 'export const generated = 1;\n',
      'node_modules/dep/index.js': 'module.exports = 1;\n',
    });
    const outside = tempDir('engram-outside-');
    writeFileSync(path.join(outside, 'secret.ts'), 'export const secret = 1;\n');
    symlinkSync(path.join(outside, 'secret.ts'), path.join(root, 'src/link.ts'));
    const report = await test.call('scan', {
      paths: ['src/api.gen.ts', 'node_modules/dep/index.js', 'src/link.ts'],
    });
    assert.deepEqual(report.changes.added, []);
    assert.equal(report.skippedByReason['symlink-outside'], 1);
    const paths = indexedPaths(test);
    for (const p of ['src/api.gen.ts', 'node_modules/dep/index.js', 'src/link.ts'])
      assert.ok(!paths.includes(p), p);
  });

  it('a changed ignore file rescans its directory: newly ignored files are deleted', async () => {
    const { root, test } = await workspaceHost();
    writeFiles(root, { 'pkg/.gitignore': 'gen.ts\n' });
    const report = await test.call('scan', { paths: ['pkg/.gitignore'] });
    assert.deepEqual(report.changes.deleted, ['pkg/gen.ts']);
    assert.deepEqual(report.changes.added, ['pkg/.gitignore']);
    assert.ok(indexedPaths(test).includes('pkg/main.ts'));
  });

  it('a path outside the root is refused with a one-line error, before anything is scanned', async () => {
    const { root, test } = await workspaceHost();
    for (const outside of ['../elsewhere.ts', path.join(path.dirname(root), 'other/x.ts')]) {
      await assert.rejects(test.call('scan', { paths: [outside] }), (error: unknown) => {
        assert.ok(EngramError.is(error, 'INVALID_INPUT'));
        assert.match(error.message, /^paths must be inside the workspace .+; got .+$/);
        return true;
      });
    }
    await assert.rejects(test.call('scan', { paths: 'src/server.ts' }), /paths must be a list of text/);
  });

  it('a rename within the batch moves the file and says so; a deleted directory deletes its files', async () => {
    const { root, test } = await workspaceHost();
    renameSync(path.join(root, 'src/lib/math.ts'), path.join(root, 'src/lib/numbers.ts'));
    rmSync(path.join(root, 'src/sub'), { recursive: true });
    const report = await test.call('scan', { paths: ['src/lib/math.ts', 'src/lib/numbers.ts', 'src/sub'] });
    assert.deepEqual(report.changes.renamed, [{ from: 'src/lib/math.ts', to: 'src/lib/numbers.ts' }]);
    assert.deepEqual(report.changes.deleted, ['src/sub/one.ts', 'src/sub/two.ts']);
    assert.deepEqual(report.changes.added, []);
    assert.ok(await memoryOf(test, 'code:file:src/lib/numbers.ts'));
    assert.equal(await memoryOf(test, 'code:file:src/lib/math.ts'), undefined);
  });

  it('a tsconfig change is seen whether it is named or only its mtime moved', async () => {
    const { root, test } = await workspaceHost();
    assert.equal(resolvedImport(test, 'src/server.ts', '@lib/math'), 'src/lib/math.ts');
    writeFiles(root, {
      'src/util/math.ts': 'export function clamp(n: number): number {\n  return n;\n}\n',
      'tsconfig.json': JSON.stringify({
        compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['src/util/*'] } },
      }),
    });
    // The watcher reported the new file and the importer, not the tsconfig: its mtime gives it away.
    await test.call('scan', { paths: ['src/util/math.ts', 'src/server.ts'] });
    writeFileSync(path.join(root, 'src/server.ts'), `${FILES['src/server.ts']}// touched\n`);
    await test.call('scan', { paths: ['src/server.ts'] });
    assert.equal(resolvedImport(test, 'src/server.ts', '@lib/math'), 'src/util/math.ts');
    writeFiles(root, {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['src/lib/*'] } },
      }),
    });
    writeFileSync(path.join(root, 'src/server.ts'), FILES['src/server.ts']!);
    await test.call('scan', { paths: ['tsconfig.json', 'src/server.ts'] });
    assert.equal(resolvedImport(test, 'src/server.ts', '@lib/math'), 'src/lib/math.ts');
  });
});

/** Everything the index says about the code, without ids, generations and mtimes. */
function indexDump(db: DurableDatabase): unknown {
  return db.read((r) => ({
    files: r.all(
      'SELECT path, language, content_hash, size, lines, parsed, has_errors FROM code_files ORDER BY path',
    ),
    symbols: r.all(
      `SELECT f.path, s.name, s.kind, s.signature, s.doc, s.start_line, s.end_line, s.exported, s.container
         FROM code_symbols s JOIN code_files f ON f.id = s.file_id ORDER BY f.path, s.start_line, s.name`,
    ),
    imports: r.all(
      `SELECT f.path, i.specifier, i.resolved_path, i.line FROM code_imports i JOIN code_files f ON f.id = i.file_id
        ORDER BY f.path, i.line, i.specifier`,
    ),
    references: r.all(
      'SELECT f.path, x.names FROM code_references x JOIN code_files f ON f.id = x.file_id ORDER BY f.path',
    ),
    manifests: r.all(
      'SELECT f.path, m.kind, m.name, m.data FROM code_manifests m JOIN code_files f ON f.id = m.file_id ORDER BY f.path',
    ),
  }));
}

describe('the long-lived scan worker', () => {
  it('gives the index that fresh full scans give, across full and targeted rescans', async () => {
    const root = workspaceWith(FILES);
    const reused = await openCodeIndex();
    const worker = new ScanWorkerHost(sourceWorkerScripts().scan);
    after(() => worker.close());
    const scan = (paths?: string[]) =>
      scanWorkspace({
        store: reused,
        root,
        grammarsDirectory: grammarsDirectory(),
        worker,
        ...(paths ? { paths } : {}),
      });
    const steps: Array<{ change: () => void; paths: string[] }> = [
      {
        change: () => writeFiles(root, { 'src/later.ts': 'export const later = () => 3;\n' }),
        paths: ['src/later.ts'],
      },
      {
        change: () =>
          writeFiles(root, {
            'tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@lib/*': ['src/sub/*'] } } }),
          }),
        paths: ['tsconfig.json'],
      },
      {
        change: () => {
          renameSync(path.join(root, 'src/sub/one.ts'), path.join(root, 'src/sub/uno.ts'));
          rmSync(path.join(root, 'pkg/gen.ts'));
        },
        paths: ['src/sub/one.ts', 'src/sub/uno.ts', 'pkg/gen.ts'],
      },
    ];
    await scan();
    for (const step of steps) {
      step.change();
      await scan(step.paths);
      assert.ok(worker.isRunning, 'the worker outlives the scan');
      const fresh = await openCodeIndex();
      await scanWorkspace({ store: fresh, root, grammarsDirectory: grammarsDirectory(), runner: 'worker' });
      assert.deepEqual(indexDump(reused), indexDump(fresh));
    }
    mkdirSync(path.join(root, 'docs'));
    writeFiles(root, { 'docs/notes.ts': 'export const notes = 1;\n' });
    await scan();
    const fresh = await openCodeIndex();
    await scanWorkspace({ store: fresh, root, grammarsDirectory: grammarsDirectory(), runner: 'inline' });
    assert.deepEqual(indexDump(reused), indexDump(fresh));
  });

  it('is discarded when a scan is aborted mid-way; the next scan gets a fresh one and completes', async () => {
    const files: FixtureFiles = {};
    for (let i = 0; i < 200; i++)
      files[`src/m${i}.ts`] = `export function f${i}(x: number): number {\n  return x;\n}\n`;
    const root = workspaceWith(files);
    const db = await openCodeIndex();
    const worker = new ScanWorkerHost(sourceWorkerScripts().scan);
    after(() => worker.close());
    const options: ScanWorkspaceOptions = { store: db, root, grammarsDirectory: grammarsDirectory(), worker };
    const controller = new AbortController();
    await assert.rejects(
      scanWorkspace({
        ...options,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase === 'scan') controller.abort();
        },
      }),
      { name: 'AbortError' },
    );
    assert.equal(worker.isRunning, false);
    const recorded = db.read((r) => r.value<number>('SELECT count(*) FROM code_files')) ?? 0;
    assert.ok(recorded < 200, `the abort came mid-way (${recorded} files recorded)`);
    const report = await scanWorkspace(options);
    assert.equal(report.changes.added.length, 200 - recorded);
    assert.equal(
      db.read((r) => r.value<number>('SELECT count(*) FROM code_files')),
      200,
    );
    assert.ok(worker.isRunning);
  });

  it('is terminated when idle, and the next scan starts a new one', async () => {
    const root = workspaceWith({ 'a.ts': 'export const a = 1;\n' });
    const db = await openCodeIndex();
    const worker = new ScanWorkerHost(sourceWorkerScripts().scan, 20);
    after(() => worker.close());
    const options: ScanWorkspaceOptions = { store: db, root, grammarsDirectory: grammarsDirectory(), worker };
    await scanWorkspace(options);
    while (worker.isRunning) await sleep(10);
    writeFiles(root, { 'b.ts': 'export const b = 2;\n' });
    const report = await scanWorkspace({ ...options, paths: ['b.ts'] });
    assert.deepEqual(report.changes.added, ['b.ts']);
  });

  it('lets a host that never closes it exit once the scan is done, printing nothing on stdout', () => {
    grammarsDirectory();
    const root = workspaceWith({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n' });
    // The idle timeout is ten minutes: only an unref'd idle worker lets the child end in time.
    const child = spawnSync(
      process.execPath,
      ['--require', 'tsx/cjs', path.join(__dirname, 'fixtures', 'forgetfulScanHost.ts'), root],
      { encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(child.signal, null, 'the child was still running after 60 s');
    assert.equal(child.status, 0, child.stderr);
    assert.match(child.stderr, /scanned 2/);
    assert.equal(child.stdout, '', 'the worker printed to the host stdout');
  });

  it('is closed with the host: a running scan is aborted, later ones are refused', async () => {
    const { root, test } = await workspaceHost({ 'a.ts': 'export const a = 1;\n' });
    writeFiles(root, { 'b.ts': 'export const b = 2;\n' });
    const aborted = assert.rejects(test.call('scan', {}), (error: unknown) =>
      EngramError.is(error, 'CLOSED'),
    );
    await test.host.close();
    await aborted;
    await assert.rejects(test.host.engine.code!.scan(test.host.store), (error: unknown) =>
      EngramError.is(error, 'CLOSED'),
    );
  });
});
