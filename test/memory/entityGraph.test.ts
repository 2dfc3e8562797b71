import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';

describe('entity graph', () => {
  it('links memories to the entities they name, with backlinks and co-occurrence', async () => {
    const t = await openTestHost();
    await t.call('remember', {
      content: 'The login flow lives in src/auth/login.ts and uses the jsonwebtoken package.',
    });
    await t.call('remember', { content: 'src/auth/login.ts calls verifySession() on every request.' });
    const entities = await t.call('entities', { query: 'login' });
    const login = entities.find((e) => e.name === 'src/auth/login.ts');
    assert.ok(login, `entities: ${entities.map((e) => e.name).join(', ')}`);
    assert.equal(login.type, 'file');
    assert.equal(login.memoryCount, 2);

    const related = await t.call('related', { entity: 'src/auth/login.ts' });
    assert.equal(related.memories.length, 2);
    const names = related.related.map((e) => e.name);
    assert.ok(
      names.some((n) => /verifySession/.test(n)),
      names.join(', '),
    );
  });

  it('walks two hops with a recursive query and scores by path strength', async () => {
    const t = await openTestHost();
    await t.call('remember', { content: 'Caroline works with Melanie on the billing service.' });
    await t.call('remember', { content: 'Melanie maintains Kubernetes for the team.' });
    const one = await t.call('related', { entity: 'Caroline', hops: 1 });
    const two = await t.call('related', { entity: 'Caroline', hops: 2 });
    assert.ok(!one.related.some((e) => e.key === 'kubernetes'));
    const k8s = two.related.find((e) => e.key === 'kubernetes');
    assert.ok(k8s, two.related.map((e) => e.key).join(', '));
    assert.equal(k8s.hops, 2);
    const melanie = two.related.find((e) => e.key === 'melanie')!;
    assert.ok(melanie.score > k8s.score);
  });

  it('strengthens a relation with repeated evidence', async () => {
    const t = await openTestHost();
    await t.call('remember', { content: 'Caroline reviewed the Postgres migration.' });
    const once = (await t.call('related', { entity: 'Caroline' })).related.find(
      (e) => e.key === 'postgresql',
    )!;
    await t.call('remember', { content: 'Caroline tuned Postgres indexes.' });
    await t.call('remember', { content: 'Postgres backups are owned by Caroline.' });
    const thrice = (await t.call('related', { entity: 'Caroline' })).related.find(
      (e) => e.key === 'postgresql',
    )!;
    assert.ok(thrice.score > once.score, `${thrice.score} > ${once.score}`);
    const row = t.host.store.read((r) =>
      r.get<{ evidence_count: number }>(
        "SELECT evidence_count FROM relations WHERE type = 'co-occurs' ORDER BY evidence_count DESC LIMIT 1",
      ),
    );
    assert.equal(row?.evidence_count, 3);
  });

  it('merges two entities: links and aliases move, the old name still resolves', async () => {
    const t = await openTestHost();
    await t.call('remember', { content: 'Katherine reviewed the release notes.' });
    await t.call('remember', { content: 'Yesterday Kate approved the deploy.' });
    const merged = await t.call('mergeEntities', { from: 'Kate', into: 'Katherine' });
    assert.ok(merged.aliases.includes('kate'));
    assert.equal(merged.memoryCount, 2);
    const viaOldName = await t.call('related', { entity: 'Kate' });
    assert.equal(viaOldName.entity.id, merged.id);
    await t.call('remember', { content: 'Then Kate wrote the changelog.' });
    assert.equal((await t.call('related', { entity: 'Katherine' })).memories.length, 3);
    assert.equal((await t.call('entities', { query: 'kate' })).length, 1);
  });

  it('answers NOT_FOUND for an unknown entity', async () => {
    const t = await openTestHost();
    await assert.rejects(t.call('related', { entity: 'Nobody' }), /no entity named "Nobody"/);
  });
});
