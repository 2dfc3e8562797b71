import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RepoMap } from '../../engine/code/repoMap';
import { tokenCount } from '../../engine/retrieval/tokenCount';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { grammarsDirectory, workspaceWith } from './codeWorkspace';
import type { FixtureFiles } from './languageFixtures';

/**
 * A small application whose store module everything depends on, and a theme module only the
 * panel uses: the map's ranking, focus and budget are visible on it.
 */
const APP: FixtureFiles = {
  'src/core/store.ts': [
    '/** The one durable store of the app. */',
    'export class Store {',
    '  get(key: string): string | undefined {',
    '    return key ? undefined : undefined;',
    '  }',
    '  put(key: string, value: string): void {',
    '    void key;',
    '    void value;',
    '  }',
    '}',
    'export function openStore(file: string): Store {',
    '  void file;',
    '  return new Store();',
    '}',
    '',
  ].join('\n'),
  'src/ui/theme.ts': [
    'export interface Theme {',
    '  accent: string;',
    '}',
    "export const DARK_THEME: Theme = { accent: '#000' };",
    '',
  ].join('\n'),
  'src/ui/panel.ts': [
    "import { Store } from '../core/store';",
    "import { DARK_THEME } from './theme';",
    "import type { Theme } from './theme';",
    'export function renderPanel(store: Store, theme: Theme = DARK_THEME): string {',
    "  return `${store.get('title') ?? ''}${theme.accent}`;",
    '}',
    '',
  ].join('\n'),
  'src/cli/command.ts': [
    "import { openStore } from '../core/store';",
    'export function runCommand(file: string): void {',
    "  openStore(file).put('last', file);",
    '}',
    '',
  ].join('\n'),
  'src/sync/replicate.ts': [
    "import { Store, openStore } from '../core/store';",
    'export function replicate(from: Store, file: string): void {',
    "  openStore(file).put('copy', from.get('x') ?? '');",
    '}',
    '',
  ].join('\n'),
  'src/sync/backup.ts': [
    "import { openStore } from '../core/store';",
    'export function backup(file: string): Store {',
    '  return openStore(file);',
    '}',
    "import type { Store } from '../core/store';",
    '',
  ].join('\n'),
};

function map(test: TestHost, params: Record<string, unknown>): Promise<RepoMap> {
  return test.call('map', params);
}

const positionOf = (result: RepoMap, file: string) => result.files.findIndex((f) => f.path === file);

describe('repo map', () => {
  let root: string;
  let test: TestHost;
  before(async () => {
    root = workspaceWith(APP);
    test = await openTestHost({ code: { root, grammarsDirectory: grammarsDirectory(), runner: 'inline' } });
    await test.call('scan');
  });
  after(() => test.host.close());

  it('ranks the file everything imports first, with the signatures others use', async () => {
    const result = await map(test, {});
    assert.equal(result.files[0]?.path, 'src/core/store.ts');
    assert.deepEqual(
      result.files[0]?.symbols.map((s) => s.name),
      ['Store', 'get', 'put', 'openStore'],
    );
    assert.match(result.text, /^src\/core\/store\.ts:\n {2}2: class Store\n {4}3: get\(key: string\)/);
    assert.equal(result.files.length, 6);
    assert.equal(result.note, undefined);
  });

  it('moves the focus files and what the query names up the ranking', async () => {
    const plain = await map(test, {});
    const focused = await map(test, { focus: [path.join(root, 'src/ui/theme.ts')] });
    assert.ok(positionOf(plain, 'src/ui/theme.ts') > 0);
    assert.equal(focused.files[0]?.path, 'src/ui/theme.ts');
    assert.deepEqual(focused.focus.files, ['src/ui/theme.ts']);

    const asked = await map(test, { query: 'why does renderPanel ignore the accent colour?' });
    assert.deepEqual(asked.focus.identifiers, ['renderPanel']);
    assert.ok(positionOf(asked, 'src/ui/panel.ts') < positionOf(plain, 'src/ui/panel.ts'));

    const byPath = await map(test, { query: 'look at src/sync/backup.ts', focus: ['src/nowhere.ts'] });
    assert.deepEqual(byPath.focus.mentionedFiles, ['src/sync/backup.ts']);
    assert.deepEqual(byPath.focus.unknown, ['src/nowhere.ts']);
    assert.ok(positionOf(byPath, 'src/sync/backup.ts') < positionOf(plain, 'src/sync/backup.ts'));
  });

  it('stops at the token budget, most important files first', async () => {
    const full = await map(test, { budget: 2000 });
    const small = await map(test, { budget: 40 });
    assert.ok(small.tokens <= 40 && tokenCount(small.text) === small.tokens);
    assert.ok(small.files.length >= 1 && small.files.length < full.files.length);
    assert.equal(small.files[0]?.path, full.files[0]?.path);
    assert.ok(full.text.startsWith(small.text.split('\n')[0]!));
    const tiny = await map(test, { budget: 16 });
    assert.ok(tiny.tokens <= 16);
  });

  it('rejects malformed parameters with one clear line', async () => {
    await assert.rejects(
      map(test, { budget: 5 }),
      /budget must be a whole number of tokens from 16 to 100000; got 5/,
    );
    await assert.rejects(map(test, { budget: 'big' }), /budget must be a number; got/);
    await assert.rejects(map(test, { focus: 'src/ui/theme.ts' }), /focus must be a list of text/);
    await assert.rejects(map(test, { query: 3 }), /query must be text/);
  });
});

describe('repo map of an empty index', () => {
  it('is empty, with a note that says to scan', async () => {
    const root = workspaceWith({ 'README.md': '# nothing scanned yet\n' });
    const test = await openTestHost({
      code: { root, grammarsDirectory: grammarsDirectory(), runner: 'inline' },
    });
    after(() => test.host.close());
    const result = await map(test, { focus: ['README.md'] });
    assert.equal(result.text, '');
    assert.deepEqual(result.files, []);
    assert.match(result.note ?? '', /the code index is empty: run `engram scan` first/);
  });
});
