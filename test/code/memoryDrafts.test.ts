import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readFileIndex } from '../../engine/code/codeIndexReader';
import type { FileIndex } from '../../engine/code/codeIndexReader';
import { deriveFileMemories } from '../../engine/code/memoryDrafts';
import type { MemoryDraft } from '../../engine/code/memoryDrafts';
import { scanWorkspace } from '../../engine/code/scanWorkspace';
import { sourceTokens, tokenCost } from '../../engine/code/tokenCost';
import { grammarsDirectory, openCodeIndex, workspaceWith } from './codeWorkspace';
import * as fixtures from './languageFixtures';

describe('codebase memory drafts', () => {
  it('derives a module summary, symbol memories and config memories with stable keys and relations', async () => {
    const db = await openCodeIndex();
    const root = workspaceWith({
      ...fixtures.TYPESCRIPT,
      'src/store.ts': [
        '/** Keeps sessions in memory. Not shared between processes. */',
        'export class SessionStore {',
        '  private readonly sessions = new Map<string, string>();',
        '',
        '  get(id: string): string | undefined {',
        '    return this.sessions.get(id);',
        '  }',
        '',
        '  set(id: string, value: string): void {',
        '    this.sessions.set(id, value);',
        '  }',
        '',
        '  drop(id: string): boolean {',
        '    return this.sessions.delete(id);',
        '  }',
        '',
        '  private hidden(): number {',
        '    return this.sessions.size;',
        '  }',
        '',
        '  clearAll(): void {',
        '    this.sessions.clear();',
        '    void this.hidden();',
        '  }',
        '}',
        '',
      ].join('\n'),
      'package.json': JSON.stringify({
        name: 'limiter',
        scripts: { build: 'tsc -p .', test: 'node --test' },
        dependencies: { express: '4.21.0' },
      }),
    });
    await scanWorkspace({ store: db, root, grammarsDirectory: grammarsDirectory(), runner: 'inline' });
    const service = db.read((r) => readFileIndex(r, 'src/service.ts')) as FileIndex;
    const drafts = deriveFileMemories(service);
    const byKey = new Map(drafts.map((d) => [d.key, d]));

    const module = byKey.get('code:file:src/service.ts') as MemoryDraft;
    assert.equal(module.kind, 'code-module');
    assert.match(module.content, /class WindowLimiter implements RateLimiter/);
    assert.match(module.content, /async function createLimiter\(limit: number/);
    assert.match(module.content, /imports: src\/lib\/math, src\/helpers, src\/lib\/index, express/);
    assert.doesNotMatch(module.content, /internalOnly/, 'private definitions stay out of the summary');
    assert.deepEqual(
      module.relations.filter((r) => r.type === 'IMPORTS').map((r) => r.to),
      ['src/lib/math.ts', 'src/helpers.ts', 'src/lib/index.ts'],
    );
    assert.ok(module.relations.some((r) => r.type === 'DEFINES' && r.to === 'WindowLimiter'));

    assert.equal(
      byKey.get('code:symbol:src/service.ts#WindowLimiter'),
      undefined,
      'a 12-line class is fully described by the summary',
    );
    const store = deriveFileMemories(db.read((r) => readFileIndex(r, 'src/store.ts')) as FileIndex);
    const storeClass = store.find((d) => d.key === 'code:symbol:src/store.ts#SessionStore') as MemoryDraft;
    assert.equal(storeClass.kind, 'code-symbol');
    assert.match(
      storeClass.content,
      /^class SessionStore \(class in src\/store\.ts:2\)\. Keeps sessions in memory/,
    );
    assert.match(storeClass.content, /members: get, set, drop/);
    assert.doesNotMatch(storeClass.content, /hidden/, 'private members are not listed');
    assert.deepEqual(storeClass.source, { file: 'src/store.ts', startLine: 2, endLine: 25 });

    const pkg = deriveFileMemories(db.read((r) => readFileIndex(r, 'package.json')) as FileIndex);
    assert.equal(pkg.length, 1);
    assert.equal(pkg[0]?.key, 'code:config:package.json');
    assert.match(pkg[0]?.content ?? '', /scripts: build = tsc -p \., test = node --test/);
    assert.deepEqual(pkg[0]?.relations, [{ from: 'limiter', type: 'DEPENDS_ON', to: 'express' }]);

    assert.deepEqual(
      deriveFileMemories(service).map((d) => d.key),
      drafts.map((d) => d.key),
      'keys are stable across derivations',
    );
    await db.close();
  });

  it('costs at most a tenth of the source tokens on real code (engine/store)', async () => {
    const db = await openCodeIndex();
    // Real, hand-written code rather than a synthetic module; read in place, never written.
    const root = path.resolve(__dirname, '../../engine/store');
    await scanWorkspace({ store: db, root, grammarsDirectory: grammarsDirectory(), runner: 'inline' });
    const paths = db
      .read((r) => r.all<{ path: string }>('SELECT path FROM code_files WHERE parsed = 1'))
      .map((row) => row.path);
    assert.ok(paths.length >= 5, `${paths.length} source files`);
    const drafts = paths.flatMap((p) => deriveFileMemories(db.read((r) => readFileIndex(r, p)) as FileIndex));
    const cost = tokenCost(drafts, await sourceTokens(root, paths));
    assert.ok(cost.memoryTokens > 0);
    assert.ok(
      cost.ratio <= 0.1,
      `memories cost ${cost.memoryTokens} tokens for ${cost.sourceTokens} of source`,
    );
    await db.close();
  });

  it('names each export once: no object-literal methods, no repeated overloads', async () => {
    const db = await openCodeIndex();
    const root = workspaceWith({
      // A migration table: each entry's `up` is a method of an object literal, not an export.
      'src/migrations.ts': [
        'export const MIGRATIONS = [',
        '  { version: 1, up(tx: string[]) { tx.push("a"); } },',
        '  { version: 2, up(tx: string[]) { tx.push("b"); } },',
        '  { version: 3, up(tx: string[]) { tx.push("c"); } },',
        '];',
        'export function parse(text: string): number;',
        'export function parse(text: string, radix: number): number;',
        'export function parse(text: string, radix = 10): number {',
        '  return Number.parseInt(text, radix);',
        '}',
        '',
      ].join('\n'),
      // No exports: the file's definitions are listed once each by name.
      'src/script.ts': [
        'function reset(): void {}',
        'const handlers = { reset() {}, close() {} };',
        'class Helper { reset(): void {} }',
        'reset(); void handlers; void Helper;',
        '',
      ].join('\n'),
    });
    await scanWorkspace({ store: db, root, grammarsDirectory: grammarsDirectory(), runner: 'inline' });
    const summary = (file: string) =>
      deriveFileMemories(db.read((r) => readFileIndex(r, file)) as FileIndex).find(
        (d) => d.kind === 'code-module',
      )?.content ?? '';
    const migrations = summary('src/migrations.ts');
    assert.equal(migrations.match(/\bup\(/g)?.length ?? 0, 0, migrations);
    assert.equal(migrations.match(/\bparse\(/g)?.length, 1, migrations);
    const script = summary('src/script.ts');
    assert.equal(script.match(/\breset\b/g)?.length, 1, script);
    await db.close();
  });
});
