import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import { written } from '../support/written';

async function seeded() {
  const t = await openTestHost();
  const ids: Record<string, string> = {};
  const add = async (key: string, content: string, extra: Record<string, unknown> = {}) => {
    ids[key] = (await t.call('remember', { content, ...extra })).memory.id;
  };
  await add('rate', 'Rate limiting is handled by rateLimiter() in src/api/rateLimit.ts');
  await add('user', 'getUserName() reads the display name from the profile service');
  await add('deploy', 'Deploy with npm run deploy after the staging checks pass', {
    kind: 'procedure',
    layer: 'procedural',
  });
  await add('db', 'Caroline moved sessions from Redis to Postgres in March', { layer: 'episodic' });
  await add('owner', 'Caroline owns the billing service and reviews its pull requests');
  await add('noise1', 'The office coffee machine is on the third floor');
  await add('noise2', 'Team lunch happens on Thursdays');
  return { t, ids };
}

describe('recall', () => {
  it('finds code-shaped memories from plain words ("user name" -> getUserName)', async () => {
    const { t, ids } = await seeded();
    const { hits } = await t.call('recall', { query: 'how is the user name read?' });
    assert.equal(hits[0]?.memory.id, ids['user']);
  });

  it('ranks the memory that answers first, and reports the channels that found it', async () => {
    const { t, ids } = await seeded();
    const { hits } = await t.call('recall', { query: 'where is rate limiting handled', k: 3 });
    assert.equal(hits[0]?.memory.id, ids['rate']);
    assert.ok(hits[0]!.channels.lexical, JSON.stringify(hits[0]!.channels));
    assert.ok(hits.length <= 3);
  });

  it('reaches memories through the entity graph when no word matches', async () => {
    const { t, ids } = await seeded();
    const { hits } = await t.call('recall', { query: 'Caroline', k: 5, channels: ['graph'] });
    const found = hits.map((h) => h.memory.id);
    assert.ok(found.includes(ids['db']!) && found.includes(ids['owner']!), JSON.stringify(found));
    const ppr = await t.call('recall', { query: 'Caroline', k: 5, channels: ['ppr'] });
    assert.ok(ppr.hits.length >= 2);
  });

  it('excludes invalidated, superseded and forgotten memories unless asked', async () => {
    const { t, ids } = await seeded();
    await t.call('invalidate', { id: ids['rate']!, reason: 'moved to the gateway' });
    await t.call('forget', { id: ids['user']! });
    const plain = await t.call('recall', { query: 'rate limiting user name' });
    assert.ok(!plain.hits.some((h) => h.memory.id === ids['rate'] || h.memory.id === ids['user']));
    const inactive = await t.call('recall', { query: 'rate limiting user name', includeInactive: true });
    assert.ok(inactive.hits.some((h) => h.memory.id === ids['rate']));
    assert.ok(!inactive.hits.some((h) => h.memory.id === ids['user']), 'forgotten stays hidden');
  });

  it('recalls what was known at a time (asOf), with the content of then', async () => {
    const { t, ids } = await seeded();
    const before = t.clock.now;
    t.clock.advance(60_000);
    await t.call('edit', {
      id: ids['deploy']!,
      changes: { content: 'Deploy with the release pipeline; npm run deploy is gone' },
    });
    const then = await t.call('recall', { query: 'deploy', asOf: before });
    assert.equal(then.hits[0]?.memory.content, 'Deploy with npm run deploy after the staging checks pass');
    const now = await t.call('recall', { query: 'deploy' });
    assert.match(now.hits[0]!.memory.content, /release pipeline/);
    const ancient = await t.call('recall', { query: 'deploy', asOf: before - 3_600_000 });
    assert.deepEqual(ancient.hits, []);
  });

  it('explains: intent, terms, entities, channel timings, boosts and dropped candidates', async () => {
    const { t } = await seeded();
    const result = await t.call('recall', { query: 'who owns billing? Caroline?', k: 1, explain: true });
    const trace = result.trace!;
    assert.equal(trace.intent, 'who');
    assert.ok(trace.terms.includes('bill'));
    assert.ok(trace.entities.includes('Caroline'));
    // "Caroline" is one of the query's words: the lexical channel already counts it, so the graph
    // channels do not count it a second time.
    assert.deepEqual(trace.channels.map((c) => c.name).sort(), ['lexical']);
    assert.ok(result.hits[0]!.boosts!.total > 0);
    assert.ok(trace.dropped.some((d) => d.reason === 'ranked below top 1'));
    // Without a text channel the entity seeds the graph and PageRank channels.
    const graphOnly = await t.call('recall', {
      query: 'who owns billing? Caroline?',
      channels: ['graph', 'ppr'],
      explain: true,
    });
    assert.deepEqual(graphOnly.trace!.channels.map((c) => c.name).sort(), ['graph', 'ppr']);
    assert.ok(graphOnly.hits.some((h) => /Caroline/.test(h.memory.content)));
  });

  it('writes accesses to the event ledger and the entity weights of the session', async () => {
    const { t } = await seeded();
    await t.call('recall', { query: 'Caroline billing', actor: { session: 's1' } });
    await t.call('remember', { content: 'a write flushes buffered reads' });
    const events = t.host.store.read((r) =>
      r.all<{ data: string }>("SELECT data FROM events WHERE type = 'recall'"),
    );
    assert.equal(events.length, 1);
    assert.ok((JSON.parse(events[0]!.data) as { memoryIds: string[] }).memoryIds.length > 0);
    const scopes = t.host.store
      .read((r) => r.all<{ scope: string }>('SELECT DISTINCT scope FROM entity_weights ORDER BY scope'))
      .map((r) => r.scope);
    assert.deepEqual(scopes, ['session:s1', 'workspace']);
  });

  it('rejects an empty query, a bad k and an unknown channel', async () => {
    const { t } = await seeded();
    await assert.rejects(t.call('recall', { query: '  ' }), /query/);
    await assert.rejects(t.call('recall', { query: 'x', k: 0 }), /k must be 1 to 1000/);
    await assert.rejects(
      t.call('recall', { query: 'x', channels: ['telepathy'] }),
      /channels must be one of/,
    );
  });

  it('keeps lexical results current after an edit and after an import', async () => {
    const { t, ids } = await seeded();
    await t.call('edit', {
      id: ids['noise1']!,
      changes: { content: 'The espresso machine moved to the roof terrace' },
    });
    assert.equal(
      (await t.call('recall', { query: 'espresso terrace', channels: ['lexical'] })).hits[0]?.memory.id,
      ids['noise1'],
    );
    assert.deepEqual(
      (await t.call('recall', { query: 'coffee third floor', channels: ['lexical'] })).hits
        .map((h) => h.memory.id)
        .includes(ids['noise1']!),
      false,
    );
    const exported = (await t.call('export', {})).text!;
    const other = await openTestHost();
    await other.call('import', { text: exported });
    assert.equal(
      (await other.call('recall', { query: 'espresso terrace', channels: ['lexical'] })).hits[0]?.memory.id,
      ids['noise1'],
    );
  });

  it('expands a strong hit with the turns around it in the same session', async () => {
    const t = await openTestHost();
    const turns = [
      'Nate: did you ever sort out the flaky integration tests?',
      'Joanna: yes, the fix was pinning the container clock with faketime',
      'Nate: great, thanks',
    ];
    const ids = written(
      await t.call('rememberMany', {
        memories: turns.map((content) => ({ content, layer: 'episodic', session: 'chat-7' })),
      }),
    ).map((r) => r.memory.id);
    await t.call('remember', {
      content: 'Unrelated: the office plants need water',
      layer: 'episodic',
      session: 'chat-8',
    });
    const expanded = await t.call('recall', { query: 'flaky integration tests', k: 3 });
    assert.equal(expanded.hits[0]?.memory.id, ids[0]);
    const answer = expanded.hits.find((h) => h.memory.id === ids[1]);
    assert.ok(answer?.channels.neighbours, JSON.stringify(expanded.hits.map((h) => h.channels)));
    const plain = await t.call('recall', { query: 'flaky integration tests', k: 3, channels: ['lexical'] });
    assert.ok(!plain.hits.some((h) => h.memory.id === ids[1]));
  });
});
