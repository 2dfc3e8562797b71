import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { driftStatusOf } from '../../engine/drift/driftStatus';
import { BEFORE_CHANGE, BEFORE_COMMIT, CHANGE_COMMIT, driftHost, memoryIn, rememberAt } from './driftHost';
import { applyChanges, GitRepository } from './gitRepository';

/*
 * A factory whose first argument became an option (http-proxy-middleware's `context` ->
 * `pathFilter`, a development repository of bench:drift): README examples still call it with two
 * arguments and never import it in the same block. Then the function moves to another module with
 * long type parameters, in a branch rebased onto main (every commit one committer time).
 */
const TYPES = 'export interface Options {\n  target?: string;\n  pathFilter?: string | string[];\n}\n';
const BEFORE =
  "import type { Options } from './types';\n\nexport function createWidget(context: string | string[] | Options, options?: Options) {\n  return { context, options };\n}\n";
const AFTER =
  "import type { Options } from './types';\n\nexport function createWidget(options: Options) {\n  return { options };\n}\n";
const MOVED = [
  "import type { Options } from './types';",
  '',
  'export function createWidget<',
  '  TRequest extends Record<string, unknown> = Record<string, unknown>,',
  '  TResponse extends Record<string, unknown> = Record<string, unknown>,',
  '  TNext = () => void,',
  '>(options: Options): (request: TRequest, response: TResponse, next: TNext) => void {',
  '  return () => options;',
  '}',
  '',
].join('\n');
const MOVED_AT = '2025-03-15T12:00:00Z';
const REBASED = '2025-04-01T12:00:00Z';

async function refusedCallWorkspace() {
  const repo = new GitRepository();
  repo.commit('initial', BEFORE_COMMIT, {
    write: { 'package.json': '{ "name": "widgets" }\n', 'src/types.ts': TYPES, 'src/index.ts': BEFORE },
  });
  // Both land with one committer time, as a rebase leaves them; their author times differ.
  const changing = commitAt(repo, CHANGE_COMMIT, 'context becomes the pathFilter option', {
    'src/index.ts': AFTER,
  });
  commitAt(repo, MOVED_AT, 'move the factory to its own module', {
    'src/factory.ts': MOVED,
    'src/index.ts': "export * from './factory';\n",
  });
  const test = await driftHost(repo.root);
  await test.call('scan', { tokens: false });
  return { test, changing };

  function commitAt(
    r: GitRepository,
    authored: string,
    message: string,
    write: Record<string, string>,
  ): string {
    applyChanges(r.root, { write });
    r.git('add', '-A');
    r.gitAt(REBASED, 'commit', '-q', '-m', message, '--date', authored);
    return r.git('rev-parse', 'HEAD');
  }
}

describe('drift on calls a typed declaration refuses now', () => {
  it('an example call of the project function is stale from the commit that changed it, not dead', async () => {
    const { test, changing } = await refusedCallWorkspace();
    const id = await rememberAt(
      test,
      "Proxy only the API:\n\n```javascript\nconst proxy = createWidget('/api', { target: 'http://localhost:3000' });\napp.use(proxy);\n```",
      BEFORE_CHANGE,
    );
    const report = await test.call('drift', { all: true });
    const memory = memoryIn(report, id);
    const call = memory.claims.find((c) => c.subject === 'createWidget');
    assert.deepEqual(
      [call?.verdict, call?.evidence.doubtful, call?.evidence.commit?.hash],
      ['stale', undefined, changing],
      JSON.stringify(memory.claims),
    );
    // The function is still there: the example wants amending, not the memory invalidating.
    assert.equal(memory.status, 'stale');
  });

  it('a call the declaration still accepts holds, through the long type parameters', async () => {
    const { test } = await refusedCallWorkspace();
    const id = await rememberAt(
      test,
      "```javascript\nconst proxy = createWidget({ target: 'http://localhost:3000' });\n```",
      BEFORE_CHANGE,
    );
    const report = await test.call('drift', { all: true });
    assert.equal(
      memoryIn(report, id).claims.find((c) => c.subject === 'createWidget')?.verdict,
      'ok',
      JSON.stringify(memoryIn(report, id).claims),
    );
  });
});

describe("a heading stating a function's parameters in the docs' notation", () => {
  it('reads `[context,] options` as two arguments, the full form a typed declaration must accept', async () => {
    const { test, changing } = await refusedCallWorkspace();
    const id = await rememberAt(test, '#### createWidget([context,] options)', BEFORE_CHANGE);
    const kept = await rememberAt(test, '#### createWidget(options)', BEFORE_CHANGE);
    const report = await test.call('drift', { all: true });
    const heading = memoryIn(report, id).claims.find((c) => c.subject === 'createWidget');
    assert.deepEqual(
      [heading?.verdict, heading?.evidence.doubtful, heading?.evidence.commit?.hash],
      ['stale', undefined, changing],
      JSON.stringify(memoryIn(report, id).claims),
    );
    assert.equal(memoryIn(report, kept).claims.find((c) => c.subject === 'createWidget')?.verdict, 'ok');
  });
});

describe('a memory whose only false claims are amendable', () => {
  it('is stale, never dead', () => {
    const refused = {
      verdict: 'stale' as const,
      evidence: { reason: 'no declaration accepts (string)', amendable: true },
    };
    const gone = { verdict: 'stale' as const, evidence: { reason: 'missing from the code' } };
    assert.equal(driftStatusOf([refused]), 'stale');
    assert.equal(driftStatusOf([gone]), 'dead');
  });
});
