import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import { driftHost, rememberAt } from '../drift/driftHost';
import { GitRepository } from '../drift/gitRepository';
import { openTestHost } from '../support/host';
import { written as allWritten } from '../support/written';
import { captureSynthetic } from '../capture/capturedSession';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const HOUR = 3_600_000;

describe('timeline engine method', () => {
  it('returns versions, supersession and invalidation links, drift at its commit and scan runs', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'src/config.ts': 'export const port = 1;\n', 'README.md': '# app\n' },
    });
    const deleting = repo.commit('Drop the config module', T2, { remove: ['src/config.ts'] });
    const test = await driftHost(repo.root);
    await test.call('scan');

    const first = await test.call('remember', {
      content: 'Deploys go out on Tuesdays',
      conflictKey: 'deploy-day',
    });
    test.clock.advance(HOUR);
    const second = await test.call('remember', {
      content: 'Deploys go out on Thursdays',
      conflictKey: 'deploy-day',
    });
    assert.deepEqual(second.superseded, [first.memory.id]);
    test.clock.advance(HOUR);
    const edited = await test.call('remember', { content: 'The API answers in JSON', tags: ['api'] });
    test.clock.advance(HOUR);
    await test.call('edit', {
      id: edited.memory.id,
      changes: { content: 'The API answers in JSON and CSV' },
    });
    const old = await test.call('remember', { content: 'Builds use webpack', conflictKey: 'bundler' });
    test.clock.advance(HOUR);
    await test.call('invalidate', { id: old.memory.id, reason: 'moved to esbuild' });
    test.clock.advance(HOUR);
    const replacement = await test.call('remember', {
      content: 'Builds use esbuild',
      conflictKey: 'bundler',
    });
    const stale = await rememberAt(test, 'The port is set in src/config.ts', BEFORE_CHANGE);
    await test.call('drift');
    test.clock.advance(HOUR);
    await test.call('scan');

    const data = await test.call('timeline');
    assert.equal(data.truncated, false);
    assert.equal(data.total, data.memories.length);
    assert.equal(data.now, test.clock.now);
    const byId = new Map(data.memories.map((m) => [m.id, m]));
    assert.equal(byId.get(first.memory.id)?.status, 'superseded', 'superseded memories are on the timeline');

    const versions = data.versions.filter((v) => v.memoryId === edited.memory.id);
    assert.deepEqual(
      versions.map((v) => [v.version, v.change]),
      [[2, 'edited']],
    );
    assert.equal(byId.get(edited.memory.id)?.createdAt, edited.memory.recordedAt, 'first known at version 1');
    assert.ok((byId.get(edited.memory.id)?.recordedAt ?? 0) > edited.memory.recordedAt);

    assert.deepEqual(
      data.links.map((l) => [l.from, l.to, l.kind]).sort(),
      [
        [first.memory.id, second.memory.id, 'supersede'],
        [old.memory.id, replacement.memory.id, 'invalidate'],
      ].sort(),
    );

    const drift = data.drift.filter((d) => d.memoryId === stale);
    assert.equal(drift.length, 1);
    assert.equal(drift[0]?.commit?.hash, deleting);
    assert.equal(drift[0]?.commit?.message, 'Drop the config module');
    assert.equal(drift[0]?.at, Date.parse(T2), 'placed at the commit, not at the check');
    assert.equal(drift[0]?.claimKind, 'path');
    assert.equal(drift[0]?.subject, 'src/config.ts');
    assert.equal(byId.get(stale)?.validTo, Date.parse(T2));

    assert.equal(data.scans.length, 2);
    assert.deepEqual(
      data.scans.map((s) => s.status),
      ['complete', 'complete'],
    );
    assert.equal(data.scans[0]?.changedFiles, 1, 'the first scan added README.md');
    assert.equal(data.scans[1]?.changedFiles, 0, 'the second found nothing changed');
    assert.ok((data.scans[0]?.startedAt ?? 0) < (data.scans[1]?.startedAt ?? 0));
  });

  it('filters by layer, kind, agent, status, tag and text, and cuts at the limit', async () => {
    const test = await openTestHost();
    await test.call('remember', { content: 'Use pnpm for installs', kind: 'decision', tags: ['tooling'] });
    await test.call('remember', {
      content: 'Retry flaky tests once',
      kind: 'procedure',
      layer: 'procedural',
      actor: { agent: 'claude' },
    });
    const gone = await test.call('remember', { content: 'Old staging host is stage1', kind: 'fact' });
    await test.call('forget', { id: gone.memory.id });

    const ids = async (params: Record<string, unknown>) =>
      (await test.call('timeline', params)).memories.map((m) => m.content).sort();
    assert.deepEqual(await ids({ kind: 'decision' }), ['Use pnpm for installs']);
    assert.deepEqual(await ids({ layer: 'procedural' }), ['Retry flaky tests once']);
    assert.deepEqual(await ids({ agent: 'claude' }), ['Retry flaky tests once']);
    assert.deepEqual(await ids({ tag: 'TOOLING' }), ['Use pnpm for installs']);
    assert.deepEqual(await ids({ text: 'FLAKY' }), ['Retry flaky tests once']);
    assert.deepEqual(await ids({ status: 'forgotten' }), ['Old staging host is stage1']);
    assert.equal((await ids({})).length, 3, 'all statuses by default');
    const cut = await test.call('timeline', { limit: 2 });
    assert.equal(cut.memories.length, 2);
    assert.equal(cut.total, 3);
    assert.equal(cut.truncated, true);
    await test.host.close();
  });

  it('reads in pages: newest first across page ends (ties by id), versions of memories on every page, the thread free between pages', async () => {
    const test = await openTestHost();
    const written: string[] = [];
    // 13 batches of 100 written at one moment each: every page boundary falls inside a tie.
    for (let batch = 0; batch < 13; batch++) {
      const memories = Array.from({ length: 100 }, (_, i) => ({
        content: `Service ${batch}-${i} listens on port ${3000 + batch * 100 + i}`,
        dedupe: false,
      }));
      const result = await test.call('rememberMany', { memories });
      written.push(...allWritten(result).map((r) => r.memory.id));
      test.clock.advance(HOUR);
    }
    // The oldest memory gets a second version (so it is the newest now); one of the middle a third.
    await test.call('edit', { id: written[0], changes: { importance: 0.9 } });
    test.clock.advance(HOUR);
    await test.call('edit', { id: written[650], changes: { importance: 0.8 } });
    await test.call('edit', { id: written[650], changes: { importance: 0.7 } });

    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const data = await test.call('timeline');
    clearInterval(ticker);
    assert.ok(ticks > 0, 'timers ran while the timeline was read');

    assert.equal(data.memories.length, 1_300);
    assert.equal(new Set(data.memories.map((m) => m.id)).size, 1_300, 'no memory twice');
    const newestFirst = [...data.memories].sort(
      (a, b) => b.recordedAt - a.recordedAt || (a.id < b.id ? 1 : -1),
    );
    assert.deepEqual(
      data.memories.map((m) => m.id),
      newestFirst.map((m) => m.id),
    );
    assert.deepEqual(
      data.versions
        .map(
          (v) =>
            `${v.memoryId === written[0] ? 'oldest' : v.memoryId === written[650] ? 'middle' : v.memoryId}:${v.version}`,
        )
        .sort(),
      ['middle:2', 'middle:3', 'oldest:2'],
    );

    const cut = await test.call('timeline', { limit: 1_100 });
    assert.deepEqual(
      cut.memories.map((m) => m.id),
      newestFirst.slice(0, 1_100).map((m) => m.id),
    );
    assert.equal(cut.total, 1_300);
    assert.equal(cut.truncated, true);
    await test.host.close();
  });

  it('gives the captured sessions as bands: agent, start, end and turns, oldest first, without sub-agents', async () => {
    const test = await openTestHost();
    try {
      const store = test.host.store;
      await captureSynthetic(store, '/home/dev/shop', 'later', 2, '2025-01-08T10:00:00Z');
      await captureSynthetic(store, '/home/dev/shop', 'earlier', 3, '2025-01-07T09:00:00Z');
      // A sub-agent runs inside its parent's band: not a band of its own.
      store.write((tx) =>
        tx.run(
          `INSERT INTO capture_sessions (id, agent, source, parent_id, started_at, ended_at)
           VALUES ('sub', 'claude-code', 'sub.jsonl', 'earlier', ?, ?)`,
          [Date.parse('2025-01-07T09:00:05Z'), Date.parse('2025-01-07T09:00:09Z')],
        ),
      );
      const { sessions } = await test.call('timeline');
      assert.deepEqual(
        sessions.map((s) => [
          s.id,
          s.agent,
          s.turns,
          new Date(s.startedAt).toISOString(),
          new Date(s.endedAt).toISOString(),
        ]),
        [
          ['earlier', 'claude-code', 6, '2025-01-07T09:00:01.000Z', '2025-01-07T09:00:15.000Z'],
          ['later', 'claude-code', 4, '2025-01-08T10:00:01.000Z', '2025-01-08T10:00:10.000Z'],
        ],
      );
      assert.match(sessions[0]?.title ?? '', /^Step 0: make the parser handle case 0/);
    } finally {
      await test.host.close();
    }
  });

  it('refuses bad input with a one-line error naming the field', async () => {
    const test = await openTestHost();
    for (const [params, field] of [
      [{ layer: 'cosmic' }, 'layer'],
      [{ kind: 42 }, 'kind'],
      [{ status: 'gone' }, 'status'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 10_001 }, 'limit'],
      [{ limit: 2.5 }, 'limit'],
      [{ text: ['a'] }, 'text'],
      [{ agent: 7 }, 'agent'],
    ] as const) {
      await assert.rejects(
        () => test.call('timeline', params),
        (error: unknown) => {
          assert.ok(EngramError.is(error, 'INVALID_INPUT'), String(error));
          const message = (error as Error).message;
          assert.ok(message.startsWith(field), message);
          assert.doesNotMatch(message, /\n/);
          return true;
        },
        JSON.stringify(params),
      );
    }
    await test.host.close();
  });
});
