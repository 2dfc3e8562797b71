import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import type { DispatchMeta } from '../../engine/process/sharedEngine';
import { openTestHost } from '../support/host';

const isCode = (code: string) => (error: unknown) => EngramError.is(error) && error.code === code;

describe('remember', () => {
  it('stores a memory with defaults, an event and a first version', async () => {
    const t = await openTestHost();
    const result = await t.call('remember', {
      content: 'We deploy with `npm run deploy` from the main branch.',
    });
    assert.equal(result.outcome, 'added');
    const m = result.memory;
    assert.match(m.id, /^m_[0-9a-z]{20}$/);
    assert.equal(m.layer, 'semantic');
    assert.equal(m.kind, 'fact');
    assert.equal(m.version, 1);
    assert.equal(m.status, 'active');
    assert.equal(m.trust, 'human');
    assert.equal(m.validFrom, t.clock.now);
    assert.equal(m.recordedAt, t.clock.now);
    assert.equal(m.confirmations, 1);
    const events = t.host.store.read((r) =>
      r.all<{ type: string; memory_id: string }>('SELECT type, memory_id FROM events'),
    );
    assert.deepEqual(events, [{ type: 'remember', memory_id: m.id }]);
  });

  it('records agent trust for a named agent, and the actor session', async () => {
    const t = await openTestHost();
    const { memory } = await t.call('remember', {
      content: 'Use pnpm, not npm.',
      kind: 'preference',
      actor: { agent: 'claude-code', session: 's1' },
    });
    assert.equal(memory.agent, 'claude-code');
    assert.equal(memory.session, 's1');
    assert.equal(memory.trust, 'agent');
  });

  it('returns the existing memory for an exact duplicate and counts the confirmation', async () => {
    const t = await openTestHost();
    const first = await t.call('remember', { content: 'The API base URL is /api/v2' });
    const again = await t.call('remember', { content: '  The API   base URL is /api/v2 ' });
    assert.equal(again.outcome, 'unchanged');
    assert.equal(again.memory.id, first.memory.id);
    assert.equal(again.memory.confirmations, 2);
    const stats = await t.call('stats');
    assert.equal(stats.memories, 1);
  });

  it('supersedes the active memory with the same conflict key', async () => {
    const t = await openTestHost();
    const old = await t.call('remember', {
      content: 'Node 18 is the minimum version',
      conflictKey: 'node-version',
    });
    t.clock.advance(1000);
    const next = await t.call('remember', {
      content: 'Node 20 is the minimum version',
      conflictKey: 'node-version',
    });
    assert.equal(next.outcome, 'superseded');
    assert.deepEqual(next.superseded, [old.memory.id]);
    const { memory } = await t.call('get', { id: old.memory.id });
    assert.equal(memory.status, 'superseded');
    assert.equal(memory.supersededBy, next.memory.id);
    assert.equal(memory.validTo, next.memory.validFrom);
    const active = await t.call('list', {});
    assert.deepEqual(
      active.items.map((m) => m.id),
      [next.memory.id],
    );
  });

  it('redacts secrets before storing them', async () => {
    const t = await openTestHost();
    const result = await t.call('remember', {
      content: 'The deploy token is ghp_abcdefghijklmnopqrstuvwxyz0123456789 for CI',
    });
    assert.ok(!result.memory.content.includes('ghp_abcdefghijklmnopqrstuvwxyz0123456789'));
    assert.ok(result.redacted.length > 0);
    const exported = await t.call('export', {});
    assert.ok(!exported.text!.includes('ghp_abcdefghijklmnopqrstuvwxyz0123456789'));
  });

  for (const [name, params, code] of [
    ['empty content', { content: '   ' }, 'INVALID_INPUT'],
    ['missing content', {}, 'INVALID_INPUT'],
    ['unknown layer', { content: 'x', layer: 'cortex' }, 'INVALID_INPUT'],
    ['unknown kind', { content: 'x', kind: 'rumour' }, 'INVALID_INPUT'],
    ['importance out of range', { content: 'x', importance: 3 }, 'INVALID_INPUT'],
    ['tags not a list', { content: 'x', tags: 'a,b' }, 'INVALID_INPUT'],
    ['oversize content', { content: 'x'.repeat(40_000) }, 'TOO_LARGE'],
    ['bad validFrom', { content: 'x', validFrom: 'last tuesday-ish' }, 'INVALID_INPUT'],
  ] as const) {
    it(`rejects ${name} with a one-line message and writes nothing`, async () => {
      const t = await openTestHost();
      const seq = t.host.store.db.lastSeq;
      await assert.rejects(t.call('remember', params), (error: unknown) => {
        assert.ok(isCode(code)(error), String(error));
        assert.ok(!(error as Error).message.includes('\n'));
        return true;
      });
      assert.equal(t.host.store.db.lastSeq, seq);
    });
  }

  it('writes the valid memories of a batch and rejects the invalid one alone', async () => {
    const t = await openTestHost();
    const results = await t.call('rememberMany', { memories: [{ content: 'fine' }, { content: '' }] });
    assert.deepEqual(results[1], {
      outcome: 'rejected',
      index: 1,
      error: { code: 'INVALID_INPUT', message: 'content must not be empty' },
    });
    assert.equal((await t.call('stats')).memories, 1);
  });
});

describe('versions and status', () => {
  it('edits into a new version and keeps the old one in history', async () => {
    const t = await openTestHost();
    const { memory } = await t.call('remember', { content: 'Auth lives in src/auth.ts' });
    t.clock.advance(5000);
    const edited = await t.call('edit', {
      id: memory.id,
      changes: { content: 'Auth lives in src/auth/index.ts' },
    });
    assert.equal(edited.version, 2);
    assert.equal(edited.id, memory.id);
    const { versions } = await t.call('history', { id: memory.id });
    assert.deepEqual(
      versions.map((v) => [v.version, v.change, v.content]),
      [
        [1, 'created', 'Auth lives in src/auth.ts'],
        [2, 'edited', 'Auth lives in src/auth/index.ts'],
      ],
    );
    assert.equal(versions[0]!.supersededAt, t.clock.now);
    assert.equal(versions[1]!.supersededAt, null);
  });

  it('answers "what did we know then" and "what was true then"', async () => {
    const t = await openTestHost();
    const start = t.clock.now;
    const { memory } = await t.call('remember', {
      content: 'Redis caches sessions',
      validFrom: '2025-06-01T00:00:00Z',
    });
    t.clock.advance(60_000);
    await t.call('edit', { id: memory.id, changes: { content: 'Memcached caches sessions' } });
    t.clock.advance(60_000);
    await t.call('invalidate', {
      id: memory.id,
      reason: 'sessions moved to the database',
      validTo: '2026-01-15T10:01:30Z',
    });

    const knownAtStart = await t.call('asOf', { time: start });
    assert.deepEqual(
      knownAtStart.map((m) => m.content),
      ['Redis caches sessions'],
    );
    const knownAfterEdit = await t.call('asOf', { time: start + 90_000 });
    assert.deepEqual(
      knownAfterEdit.map((m) => m.content),
      ['Memcached caches sessions'],
    );
    assert.deepEqual(await t.call('asOf', { time: t.clock.now }), []);
    const trueIn2025 = await t.call('asOf', { time: '2025-07-01T00:00:00Z', axis: 'valid' });
    assert.deepEqual(
      trueIn2025.map((m) => m.id),
      [memory.id],
    );
    const trueNow = await t.call('asOf', { time: t.clock.now, axis: 'valid' });
    assert.deepEqual(trueNow, []);
    const before = await t.call('asOf', { time: '2025-01-01T00:00:00Z', axis: 'valid' });
    assert.deepEqual(before, []);
  });

  it('forgets and restores to the previous status', async () => {
    const t = await openTestHost();
    const { memory } = await t.call('remember', { content: 'Old build used gulp' });
    await t.call('invalidate', { id: memory.id, reason: 'replaced by esbuild' });
    const forgotten = await t.call('forget', { id: memory.id });
    assert.equal(forgotten.status, 'forgotten');
    assert.equal((await t.call('list', { status: 'all' })).items[0]!.status, 'forgotten');
    const restored = await t.call('restore', { id: memory.id });
    assert.equal(restored.status, 'invalidated');
    assert.equal(restored.statusReason, 'replaced by esbuild');
    await assert.rejects(t.call('restore', { id: memory.id }), isCode('INVALID_INPUT'));
  });

  it('pins without creating a version, and annotates without changing content', async () => {
    const t = await openTestHost();
    const { memory } = await t.call('remember', { content: 'Never force-push main' });
    const pinned = await t.call('pin', { id: memory.id });
    assert.equal(pinned.pinned, true);
    assert.equal(pinned.version, 1);
    await t.call('annotate', { id: memory.id, text: 'confirmed in the 2026 retro' });
    const { memory: after, annotations } = await t.call('get', { id: memory.id });
    assert.equal(after.content, 'Never force-push main');
    assert.deepEqual(
      annotations.map((a) => a.text),
      ['confirmed in the 2026 retro'],
    );
    assert.equal((await t.call('list', { pinned: true })).total, 1);
    await t.call('unpin', { id: memory.id });
    assert.equal((await t.call('list', { pinned: true })).total, 0);
  });

  it('accepts a unique id prefix and refuses unknown ids with NOT_FOUND', async () => {
    const t = await openTestHost();
    const { memory } = await t.call('remember', { content: 'prefix test' });
    const { memory: found } = await t.call('get', { id: memory.id.slice(0, 14) });
    assert.equal(found.id, memory.id);
    await assert.rejects(t.call('get', { id: 'm_doesnotexist000000000' }), isCode('NOT_FOUND'));
    await assert.rejects(t.call('forget', { id: 'm_nope' }), isCode('NOT_FOUND'));
  });

  it('counts reads in the event ledger once flushed with the next write', async () => {
    const t = await openTestHost();
    const { memory } = await t.call('remember', { content: 'read me' });
    await t.call('get', { id: memory.id });
    await t.call('recall', { query: 'read' });
    await t.call('remember', { content: 'another write flushes the reads' });
    const types = t.host.store
      .read((r) => r.all<{ type: string }>('SELECT type FROM events ORDER BY seq'))
      .map((e) => e.type);
    assert.deepEqual(types, ['remember', 'read', 'recall', 'remember']);
    const { memory: after } = await t.call('get', { id: memory.id });
    assert.equal(after.accessCount, 2);
  });
});

describe('working memory', () => {
  it('caps a session at its size limit with a clear error and nothing written', async () => {
    const t = await openTestHost({ limits: { workingMemoryBytesPerSession: 100 } });
    await t.call('remember', { content: 'a'.repeat(60), layer: 'working', actor: { session: 's1' } });
    await assert.rejects(
      t.call('remember', { content: 'b'.repeat(60), layer: 'working', actor: { session: 's1' } }),
      (error: unknown) => {
        assert.ok(isCode('TOO_LARGE')(error));
        assert.match((error as Error).message, /session "s1".*limit is 100/);
        return true;
      },
    );
    // Another session has its own budget.
    await t.call('remember', { content: 'c'.repeat(60), layer: 'working', actor: { session: 's2' } });
    assert.equal((await t.call('list', { layer: 'working' })).total, 2);
  });

  it('ends a session after its TTL unless it was touched, keeping its notes as episodes', async () => {
    const hour = 3600_000;
    const t = await openTestHost({ limits: { workingMemoryTtlMs: 2 * hour } });
    await t.call('remember', { content: 'scratch for s1', layer: 'working', actor: { session: 's1' } });
    await t.call('remember', { content: 'scratch for s2', layer: 'working', actor: { session: 's2' } });
    t.clock.advance(1.5 * hour);
    await t.call('touchSession', { session: 's2' });
    t.clock.advance(1 * hour);
    t.host.store.sweepExpired();
    const active = await t.call('list', { layer: 'working' });
    assert.deepEqual(
      active.items.map((m) => m.content),
      ['scratch for s2'],
    );
    const kept = await t.call('list', { layer: 'episodic' });
    assert.deepEqual(
      kept.items.map((m) => [m.content, m.status]),
      [['scratch for s1', 'active']],
    );
    const events = await t.call('events', { types: ['promote'] });
    assert.deepEqual(
      events.events.map((e) => e.memoryId),
      [kept.items[0]!.id],
    );
  });
});

describe('injection ledger', () => {
  it('checks, marks and evicts what a conversation was given; a changed memory counts as new', async () => {
    const t = await openTestHost();
    const a = (await t.call('remember', { content: 'memory A' })).memory.id;
    const b = (await t.call('remember', { content: 'memory B' })).memory.id;
    assert.deepEqual((await t.call('injectionCheck', { conversation: 'c1', ids: [a, b] })).injected, []);
    await t.call('injectionMark', { conversation: 'c1', ids: [a, b] });
    assert.deepEqual(
      (await t.call('injectionCheck', { conversation: 'c1', ids: [a, b] })).injected.sort(),
      [a, b].sort(),
    );
    assert.deepEqual((await t.call('injectionCheck', { conversation: 'c2', ids: [a, b] })).injected, []);
    await t.call('edit', { id: a, changes: { content: 'memory A, revised' } });
    assert.deepEqual((await t.call('injectionCheck', { conversation: 'c1', ids: [a, b] })).injected, [b]);
    await t.call('injectionEvict', { conversation: 'c1' });
    assert.deepEqual((await t.call('injectionCheck', { conversation: 'c1', ids: [a, b] })).injected, []);
  });
});

describe('exactly-once requests', () => {
  it('applies a write once per request id and answers a re-sent request from the first result', async () => {
    const t = await openTestHost();
    const meta = { requestId: 'req-1', client: 'test' };
    const first = (await t.host.dispatch('remember', { content: 'only once' }, meta)) as {
      memory: { id: string };
    };
    const again = (await t.host.dispatch('remember', { content: 'only once, really' }, meta)) as {
      memory: { id: string };
    };
    assert.equal(again.memory.id, first.memory.id);
    assert.equal((await t.call('stats')).memories, 1);
  });

  it('answers a re-sent batch with the same results, kept as ids and versions rather than whole memories', async () => {
    const t = await openTestHost();
    const meta = { requestId: 'batch-1', client: 'test' };
    const memories = [
      { content: 'the queue retries three times', tags: ['queue'] },
      { content: 'the queue retries three times' },
      { content: 'alerts page the on-call engineer', pinned: true },
    ];
    const first = await t.host.dispatch('rememberMany', { memories }, meta);
    const again = await t.host.dispatch('rememberMany', { memories: [{ content: 'something else' }] }, meta);
    assert.deepEqual(again, first);
    assert.equal((await t.call('stats')).memories, 2);
    const kept = t.host.store.read((r) =>
      r.value<string>('SELECT result FROM applied_requests WHERE request_id = ?', ['batch-1']),
    )!;
    assert.doesNotMatch(kept, /on-call engineer/);
    // An edit since: the retry still reports the version the batch wrote (now superseded).
    const edited = (first as Array<{ memory: { id: string } }>)[2]!.memory.id;
    await t.call('edit', { id: edited, changes: { content: 'alerts page whoever is on call' } });
    await t.call('unpin', { id: edited });
    const later = (await t.host.dispatch('rememberMany', { memories }, meta)) as Array<{
      memory: { content: string; version: number; pinned: boolean; supersededAt: number | null };
    }>;
    assert.equal(later[2]!.memory.content, 'alerts page the on-call engineer');
    assert.equal(later[2]!.memory.version, 1);
    assert.equal(later[2]!.memory.pinned, true);
    assert.notEqual(later[2]!.memory.supersededAt, null);
    assert.deepEqual(later.slice(0, 2), (first as unknown[]).slice(0, 2));
  });

  it('answers a re-sent remember with the same JSON, kept as an id and version rather than the whole memory', async () => {
    const t = await openTestHost();
    const meta = { requestId: 'one-1', client: 'test' };
    const first = await t.host.dispatch(
      'remember',
      { content: 'the nightly export runs at two', tags: ['ops'] },
      meta,
    );
    const again = await t.host.dispatch('remember', { content: 'something else' }, meta);
    assert.equal(JSON.stringify(again), JSON.stringify(first));
    assert.equal((await t.call('stats')).memories, 1);
    const kept = t.host.store.read((r) =>
      r.value<string>('SELECT result FROM applied_requests WHERE request_id = ?', ['one-1']),
    )!;
    assert.doesNotMatch(kept, /nightly export/);
    // A request an earlier version answered kept its whole result: a retry still gets it.
    const whole = {
      outcome: 'added',
      memory: { id: 'm_earlier', content: 'kept whole' },
      superseded: [],
      redacted: [],
    };
    t.host.store.write((tx) =>
      tx.run('INSERT INTO applied_requests (request_id, method, result, at) VALUES (?, ?, ?, ?)', [
        'old-1',
        'remember',
        JSON.stringify(whole),
        1,
      ]),
    );
    assert.deepEqual(
      await t.host.dispatch('remember', { content: 'anything' }, { ...meta, requestId: 'old-1' }),
      whole,
    );
    await t.host.close();
  });

  it("keeps no result of a local call (the host's own process), but answers one a previous host kept", async () => {
    const t = await openTestHost();
    const remember = async (content: string, meta: DispatchMeta) =>
      ((await t.host.dispatch('remember', { content }, meta)) as { memory: { id: string } }).memory.id;
    const kept = (requestId: string) =>
      t.host.store.read((r) =>
        r.value<number>('SELECT count(*) FROM applied_requests WHERE request_id = ?', [requestId]),
      );
    const here = await remember('said here', { requestId: 'local-1', client: 'test', local: true });
    assert.equal(kept('local-1'), 0);
    // A call this process had sent to a host that kept its result, re-sent after it took over.
    const there = await remember('said there', { requestId: 'sent-1', client: 'test' });
    assert.equal(kept('sent-1'), 1);
    assert.equal(
      await remember('said there, again', { requestId: 'sent-1', client: 'test', local: true }),
      there,
    );
    assert.notEqual(here, there);
    assert.equal((await t.call('stats')).memories, 2);
  });

  it('rejects unknown methods', async () => {
    const t = await openTestHost();
    await assert.rejects(
      t.host.dispatch('dropDatabase', {}, { requestId: 'x', client: 'test' }),
      isCode('INVALID_INPUT'),
    );
  });
});
