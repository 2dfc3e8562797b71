import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readDriftProposals } from '../../extension/driftProposals';
import { driftHost, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';

describe("VS Code's drift review reads a real dry run", () => {
  it("gives one proposal per memory: a human's proposed rewrite and invalidate, an agent's rewrite", async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'src/auth.ts': 'export const a = 1;\n', 'src/config.ts': 'export const port = 1;\n' },
    });
    const commit = repo.commit('Move auth, drop config', T2, {
      rename: [['src/auth.ts', 'src/login/auth.ts']],
      remove: ['src/config.ts'],
    });
    const test = await driftHost(repo.root);
    const human = await rememberAt(test, 'Tokens are checked in src/auth.ts', BEFORE_CHANGE);
    const dead = await rememberAt(test, 'The port is set in src/config.ts', BEFORE_CHANGE);
    const agent = (
      await test.call('remember', {
        content: 'Sessions are created by src/auth.ts',
        validFrom: BEFORE_CHANGE,
        dedupe: false,
        actor: { agent: 'test-agent' },
      })
    ).memory.id;

    const proposals = readDriftProposals(await test.call('drift', { fix: true, dryRun: true }));
    const byId = new Map(proposals.map((p) => [p.memoryId, p]));
    assert.equal(proposals.length, 3, JSON.stringify(proposals));
    assert.deepEqual(
      [byId.get(human)?.change, byId.get(human)?.needsConsent, byId.get(human)?.proposedContent],
      ['rewrite', true, 'Tokens are checked in src/login/auth.ts'],
    );
    assert.equal(byId.get(human)?.excerpt, 'Tokens are checked in src/auth.ts');
    assert.doesNotMatch(byId.get(human)?.reason ?? '', /^(proposed|drift)/, 'the reason reads plainly');
    assert.deepEqual(
      [byId.get(dead)?.change, byId.get(dead)?.needsConsent, byId.get(dead)?.proposedContent],
      ['invalidate', true, undefined],
    );
    assert.equal(byId.get(dead)?.evidence.commit, commit);
    assert.equal(byId.get(dead)?.evidence.message, 'Move auth, drop config');
    assert.deepEqual(
      [byId.get(agent)?.change, byId.get(agent)?.needsConsent, byId.get(agent)?.proposedContent],
      ['rewrite', false, 'Sessions are created by src/login/auth.ts'],
    );
  });

  it('proposes nothing for a memory that only needs a person to look', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'src/server.ts': 'export function configurePort(port: number) {\n  return port;\n}\n' },
    });
    repo.commit('Drop configurePort', T2, { write: { 'src/server.ts': 'export const port = 1;\n' } });
    const test = await driftHost(repo.root);
    const id = await rememberAt(test, 'The port is set by `configurePort()` in src/server.ts', BEFORE_CHANGE);

    const result = await test.call('drift', { fix: true, dryRun: true });
    const actions = result.fix?.actions.filter((a) => a.id === id) ?? [];
    assert.deepEqual(
      actions.map((a) => [a.action, a.proposed]),
      [['review', undefined]],
      JSON.stringify(result.memories),
    );
    assert.deepEqual(readDriftProposals(result), []);
  });
});
