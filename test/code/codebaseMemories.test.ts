import assert from 'node:assert/strict';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { scanWorkspace } from '../../engine/code/scanWorkspace';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { grammarsDirectory, workspaceWith } from './codeWorkspace';

const LIMITER = `/** Token-bucket rate limiting for the public API. */
export class RateLimiter {
  constructor(private readonly perMinute: number) {}
  /** True when the caller may proceed. */
  allow(key: string): boolean {
    return key.length < this.perMinute;
  }
}
`;
const SERVER = `import { RateLimiter } from './rateLimiter';
export function startServer(port: number): void {
  const limiter = new RateLimiter(60);
  console.log(port, limiter.allow('x'));
}
`;
const PACKAGE = JSON.stringify({
  name: 'demo',
  scripts: { build: 'tsc', test: 'node --test' },
  dependencies: { express: '4.19.2' },
});

async function workspaceHost(): Promise<{ root: string; test: TestHost }> {
  const root = workspaceWith({
    'src/rateLimiter.ts': LIMITER,
    'src/server.ts': SERVER,
    'package.json': PACKAGE,
  });
  const test = await openTestHost({
    code: { root, grammarsDirectory: grammarsDirectory(), runner: 'inline' },
  });
  after(() => test.host.close());
  return { root, test };
}

async function codebase(test: TestHost) {
  return (await test.call('list', { layer: 'codebase', limit: 100 })).items;
}

describe('codebase memories', () => {
  it('derive module, config and dependency memories with typed relations, and answer where-in-code questions', async () => {
    const { test } = await workspaceHost();
    const report = await test.call('scan', { tokens: true });
    assert.equal(report.files, 3);
    assert.deepEqual(report.changes.added.sort(), ['package.json', 'src/rateLimiter.ts', 'src/server.ts']);
    assert.ok(report.memories.added >= 3);
    assert.ok(report.tokenRatio && report.tokenRatio.sourceTokens > 0);
    const memories = await codebase(test);
    const limiter = memories.find((m) => m.conflictKey === 'code:file:src/rateLimiter.ts');
    assert.match(limiter!.content, /class RateLimiter/);
    assert.equal(limiter!.trust, 'ingest');
    assert.ok(
      memories.some((m) => m.conflictKey === 'code:config:package.json' && /express/.test(m.content)),
    );
    const related = await test.call('related', { entity: 'src/server.ts', hops: 1 });
    assert.ok(JSON.stringify(related).includes('src/rateLimiter.ts'), JSON.stringify(related));

    const hits = (await test.call('recall', { query: 'where is rate limiting handled?', k: 3 })).hits;
    assert.equal(hits[0]!.memory.conflictKey, 'code:file:src/rateLimiter.ts');
    const [symbol] = await test.call('symbols', { query: 'RateLimiter.allow' });
    assert.equal(symbol!.path, 'src/rateLimiter.ts');
    assert.equal(symbol!.startLine, 5);
    assert.deepEqual(
      (await test.call('files', { query: 'server' })).map((f) => f.path),
      ['src/server.ts'],
    );
  });

  it('rescans: unchanged writes nothing, an edit supersedes, a delete and a rename invalidate with valid_to', async () => {
    const { root, test } = await workspaceHost();
    await test.call('scan');
    const again = await test.call('scan');
    assert.equal(again.memories.added, 0);
    assert.equal(again.memories.files, 0);

    writeFileSync(
      path.join(root, 'src/rateLimiter.ts'),
      `${LIMITER}export function resetLimits(): void {}\n`,
    );
    const edited = await test.call('scan');
    assert.deepEqual(edited.changes.changed, ['src/rateLimiter.ts']);
    const limiter = (await codebase(test)).find((m) => m.conflictKey === 'code:file:src/rateLimiter.ts')!;
    const history = await test.call('history', { id: limiter.id });
    assert.equal(history.versions.length, 1, 'a changed summary is a new memory superseding the old one');
    const superseded = (await test.call('list', { layer: 'codebase', status: 'superseded' })).items;
    assert.ok(
      superseded.some(
        (m) => m.conflictKey === 'code:file:src/rateLimiter.ts' && !/resetLimits/.test(m.content),
      ),
    );
    assert.match(limiter.content, /resetLimits/);

    rmSync(path.join(root, 'src/server.ts'));
    renameSync(path.join(root, 'src/rateLimiter.ts'), path.join(root, 'src/limiter.ts'));
    const moved = await test.call('scan');
    assert.deepEqual(moved.changes.deleted, ['src/server.ts']);
    assert.deepEqual(moved.changes.renamed, [{ from: 'src/rateLimiter.ts', to: 'src/limiter.ts' }]);
    const invalid = (await test.call('list', { layer: 'codebase', status: 'invalidated' })).items;
    const gone = invalid.find((m) => m.conflictKey === 'code:file:src/server.ts');
    assert.equal(gone?.statusReason, 'src/server.ts is gone');
    assert.ok(gone.validTo !== null);
    const renamed = invalid.find((m) => m.conflictKey === 'code:file:src/rateLimiter.ts');
    assert.equal(renamed?.statusReason, 'src/rateLimiter.ts was renamed to src/limiter.ts');
    assert.ok((await codebase(test)).some((m) => m.conflictKey === 'code:file:src/limiter.ts'));
  });

  it('derives the memories of files indexed early while the scan still parses the rest', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 160; i++)
      files[`src/m${String(i).padStart(3, '0')}.ts`] =
        `export function f${i}(): number {\n  return ${i};\n}\n`;
    const root = workspaceWith(files);
    const opened: { host?: TestHost['host'] } = {};
    const derivedBeforeLastFile: number[] = [];
    const test = await openTestHost({
      code: {
        root,
        grammarsDirectory: grammarsDirectory(),
        runner: 'inline',
        onProgress: (progress) => {
          if (progress.phase !== 'scan' || progress.done !== progress.total || !opened.host) return;
          derivedBeforeLastFile.push(
            opened.host.store.read((r) => r.value<number>('SELECT count(*) FROM code_memory_sync') ?? 0),
          );
        },
      },
    });
    opened.host = test.host;
    after(() => test.host.close());
    const report = await test.call('scan');
    // The closing sync derives only what the scan left: the counts of both add up.
    assert.equal(report.memories.files, 160);
    assert.equal(report.memories.added, 160);
    assert.ok(
      (derivedBeforeLastFile[0] ?? 0) > 0,
      `derived during the scan: ${derivedBeforeLastFile.join()}`,
    );
    const current = test.host.store.read((r) =>
      r.value<number>("SELECT count(*) FROM memories WHERE layer = 'codebase' AND superseded_at IS NULL"),
    );
    assert.equal(current, 160);
  });

  it('derives the memories of files a killed scan indexed but never summarised', async () => {
    const { root, test } = await workspaceHost();
    // The index alone, as a scan killed right after indexing leaves it.
    await scanWorkspace({
      store: test.host.store.db,
      root,
      grammarsDirectory: grammarsDirectory(),
      runner: 'inline',
    });
    assert.equal((await codebase(test)).length, 0);
    const report = await test.call('scan');
    assert.equal(report.changes.unchanged, 3);
    assert.equal(report.memories.files, 3);
    assert.ok((await codebase(test)).length >= 3);
  });

  it('rejects the memories of a file whose path is too long for a conflict key and writes the others', async () => {
    // A draft's conflict key is `code:file:<path>`; keys hold at most 200 characters.
    const deep = `src/${'nested'.repeat(20)}/${'limiter'.repeat(12)}.ts`;
    const root = workspaceWith({ [deep]: LIMITER, 'src/server.ts': SERVER });
    const test = await openTestHost({
      code: { root, grammarsDirectory: grammarsDirectory(), runner: 'inline' },
    });
    after(() => test.host.close());
    const report = await test.call('scan');
    assert.ok(report.memories.rejected >= 1, JSON.stringify(report.memories));
    const keys = (await codebase(test)).map((m) => m.conflictKey);
    assert.ok(keys.includes('code:file:src/server.ts'), keys.join(', '));
    assert.ok(!keys.some((key) => key?.includes('nested')), keys.join(', '));
  });

  it('refuses to scan without a workspace, naming what to pass', async () => {
    const test = await openTestHost();
    after(() => test.host.close());
    await assert.rejects(test.call('scan'), /no workspace to scan: open it with a workspace root/);
  });
});
