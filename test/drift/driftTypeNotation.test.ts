import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { driftHost, memoryIn, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const pkg = `${JSON.stringify({ name: 'bundler', main: 'src/index.ts' }, null, 2)}\n`;

/*
 * Seen on rollup (explore, development): its options reference writes each function option's
 * type, `(chunkInfo: ChunkInfo) => string`, `(id: string, parentId: string, isResolved: boolean)
 * => boolean`, `() => IterableIterator<string>`. When the code renamed a parameter or stopped
 * writing `IterableIterator`, ten flags called those names "missing from the code". Parameter
 * labels and the language's own types are no claims about the project; its types are.
 */
describe('drift: types written out in an API reference', () => {
  it('does not take the parameter names of a written signature for symbols', () => {
    const text =
      'Type: `(chunkInfo: ChunkInfo) => string`. Also `(id: string, parentId?: string, ...rest: unknown[]) => boolean`.';
    const symbols = extractClaims(text)
      .filter((c) => c.kind === 'symbol')
      .map((c) => c.subject);
    assert.deepEqual(symbols, ['ChunkInfo']);
  });

  it("keeps the options an example passes in a call's parentheses, and a stated signature", () => {
    const text = [
      '```js',
      "const pino = require('pino')",
      "const logger = pino({ level: 'info', redact: ['a'] }, dest)",
      '```',
      'Or call `bundle.write(output: OutputOptions)`.',
    ].join('\n');
    const symbols = extractClaims(text, { projectPackages: new Set(['pino']) })
      .filter((c) => c.kind === 'symbol')
      .map((c) => c.subject);
    assert.deepEqual(symbols, ['pino', 'level', 'redact', 'bundle.write', 'OutputOptions']);
  });

  it("a renamed parameter and TypeScript's own types are not drift; a removed project type is", async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'package.json': pkg,
        'src/index.ts': [
          'export interface ChunkInfo { name: string }',
          'export interface BundleWarning { message: string }',
          'export function names(chunkInfo: ChunkInfo): IterableIterator<string> { return [chunkInfo.name].values(); }',
          'export function warn(warning: BundleWarning): void {}',
          '',
        ].join('\n'),
      },
    });
    const changing = repo.commit('Logs instead of warnings', T2, {
      write: {
        'src/index.ts': [
          'export interface ChunkInfo { name: string }',
          'export interface BundleLog { message: string }',
          'export function names(chunk: ChunkInfo): string[] { return [chunk.name]; }',
          'export function warn(log: BundleLog): void {}',
          '',
        ].join('\n'),
      },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(
      test,
      '`names` has type `(chunkInfo: ChunkInfo) => IterableIterator<string>`; `warn` takes a `BundleWarning`. ' +
        'Install it into `node_modules`.',
      BEFORE_CHANGE,
    );
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
    const verdict = (subject: string) => claims.find((c) => c.subject === subject)?.verdict;
    assert.equal(verdict('chunkInfo'), undefined, 'a parameter label is no claim');
    assert.notEqual(verdict('IterableIterator'), 'stale', JSON.stringify(claims));
    assert.notEqual(verdict('node_modules'), 'stale', JSON.stringify(claims));
    assert.equal(verdict('ChunkInfo'), 'ok');
    assert.equal(verdict('BundleWarning'), 'stale');
    assert.equal(claims.find((c) => c.subject === 'BundleWarning')?.evidence.commit?.hash, changing);
  });
});
