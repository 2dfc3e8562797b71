import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { Engram } from '../../engine/engram';
import { EngramError } from '../../engine/errors';
import { MIGRATIONS } from '../../engine/memory/schema';
import { startWriter } from '../support/children';
import { TestClock } from '../support/host';
import { OLD_MEMORY, versionOneDatabase } from './contractStores';
import type { ContractStore, StoreFactory } from './contractStores';

/**
 * What every store of the engine promises, whatever holds it (sql.js files or PostgreSQL): one
 * suite, run by sqlJsStore.process.test.ts and postgresStore.process.test.ts
 * against each implementation, through the engine's own surface (`Engram`: call, callWithId),
 * which is what the CLI, the MCP bridge and the team server use.
 */
export function storeContract(label: string, stores: StoreFactory): void {
  describe(`store contract: ${label}`, () => {
    const opened: Engram[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((engram) => engram.close()));
    });
    const open = async (store: ContractStore, clock?: TestClock): Promise<Engram> => {
      const engram = await store.open(clock ? { clock: clock.read } : {});
      opened.push(engram);
      return engram;
    };

    it('acknowledged writes survive a close and a reopen', async () => {
      const store = await stores();
      const first = await open(store);
      const written = [];
      for (const content of ['Builds run on Node 20', 'Releases are tagged vX.Y.Z', 'CI caches node_modules'])
        written.push((await first.call('remember', { content })).memory);
      const edited = await first.call('edit', {
        id: written[1]!.id,
        changes: { content: 'Releases are tagged vX.Y.Z by the release workflow' },
      });
      await first.close();
      const again = await open(store);
      const listed = (await again.call('list', {})).items;
      assert.deepEqual(
        listed.map((m) => [m.id, m.version, m.content]).sort(),
        [written[0]!, edited, written[2]!].map((m) => [m.id, m.version, m.content]).sort(),
      );
    });

    it('a request id applies its write once: re-sent, after a reopen and through another engine', async () => {
      const store = await stores();
      const a = await open(store);
      const params = { content: 'The staging database is reset every Monday' };
      const first = (await a.callWithId('contract-request-1', 'remember', params)) as RememberAnswer;
      const seq = await lastSeq(a);
      assert.deepEqual(await a.callWithId('contract-request-1', 'remember', params), first);
      assert.equal(await lastSeq(a), seq, 'the re-send wrote nothing');
      const b = await open(store);
      assert.deepEqual(await b.callWithId('contract-request-1', 'remember', params), first);
      await a.close();
      await b.close();
      const c = await open(store);
      assert.deepEqual(await c.callWithId('contract-request-1', 'remember', params), first);
      assert.equal((await c.call('get', { id: first.memory.id })).memory.confirmations, 1);
      // Another id is another write: the same text confirms the memory (so the id is what held it).
      await c.callWithId('contract-request-2', 'remember', params);
      assert.equal((await c.call('get', { id: first.memory.id })).memory.confirmations, 2);
    });

    it('migrations run at open: an older store reaches the newest schema with its memories, once', async () => {
      const store = await stores();
      await store.seed(await versionOneDatabase());
      const first = await open(store);
      assert.equal((await first.call('stats', {})).schemaVersion, MIGRATIONS.length);
      assert.equal((await first.call('get', { id: OLD_MEMORY.id })).memory.content, OLD_MEMORY.content);
      assert.ok(
        (await first.call('recall', { query: 'stripe payments' })).hits.some(
          (hit) => hit.memory.id === OLD_MEMORY.id,
        ),
        'the migrated memory is searchable',
      );
      await first.close();
      const reopened = async () => {
        const engram = await open(store);
        const stats = await engram.call('stats', {});
        await engram.close();
        return [stats.schemaVersion, stats.database.lastSeq];
      };
      const second = await reopened();
      assert.equal(second[0], MIGRATIONS.length);
      assert.deepEqual(await reopened(), second, 'a reopen migrates nothing again');
    });

    it('bitemporal versions: each change keeps the version before, asOf answers for a past time', async () => {
      const store = await stores();
      const clock = new TestClock();
      const engram = await open(store, clock);
      const t0 = clock.now;
      const { memory } = await engram.call('remember', { content: 'Logs are kept for 30 days' });
      clock.advance(60_000);
      const t1 = clock.now;
      await engram.call('edit', { id: memory.id, changes: { content: 'Logs are kept for 90 days' } });
      clock.advance(60_000);
      const t2 = clock.now;
      await engram.call('invalidate', { id: memory.id, reason: 'logs moved to the vendor' });
      await engram.close();

      const again = await open(store, clock);
      const { versions } = await again.call('history', { id: memory.id });
      assert.deepEqual(
        versions.map((v) => [v.version, v.content, v.status, v.recordedAt, v.supersededAt, v.validTo]),
        [
          [1, 'Logs are kept for 30 days', 'active', t0, t1, null],
          [2, 'Logs are kept for 90 days', 'active', t1, t2, null],
          [3, 'Logs are kept for 90 days', 'invalidated', t2, null, t2],
        ],
      );
      const believed = async (time: number): Promise<string[]> =>
        (await again.call('asOf', { time })).filter((v) => v.id === memory.id).map((v) => v.content);
      assert.deepEqual(await believed(t0 + 1), ['Logs are kept for 30 days']);
      assert.deepEqual(await believed(t1 + 1), ['Logs are kept for 90 days']);
      assert.deepEqual(await believed(t2 + 1), []);
    });

    it('the event ledger has one row per write, in order, with its agent', async () => {
      const store = await stores();
      const engram = await open(store);
      const actor = { agent: 'alice' };
      const { memory } = await engram.call('remember', {
        content: 'Feature flags live in flags.yaml',
        actor,
      });
      await engram.call('edit', { id: memory.id, changes: { tags: ['config'] }, actor });
      await engram.call('pin', { id: memory.id, actor });
      await engram.call('forget', { id: memory.id, actor });
      await engram.close();
      const again = await open(store);
      const { events } = await again.call('events', { memoryId: memory.id });
      assert.deepEqual(
        events.map((e) => [e.type, e.agent]),
        [
          ['remember', 'alice'],
          ['edit', 'alice'],
          ['pin', 'alice'],
          ['forget', 'alice'],
        ],
      );
      const seqs = events.map((e) => e.seq);
      assert.deepEqual(
        seqs,
        [...seqs].sort((x, y) => x - y),
        'ledger order is write order',
      );
    });

    it('a write that fails inside its transaction changes nothing', async () => {
      const store = await stores();
      const engram = await open(store);
      const start = await lastSeq(engram);
      await engram.call('remember', { content: 'Secrets are stored in the vault' });
      const before = await snapshotOf(engram);
      // Transactions a remember takes: its derived rows may have their own (deferredDerivations.ts).
      const perRemember = before.lastSeq - start;
      // Rows are inserted first; the check after them fails, so the whole transaction must go.
      await assert.rejects(
        engram.call('import', { text: await brokenImport(engram) }),
        (error) => EngramError.is(error) && /without exactly one current version/.test(error.message),
      );
      assert.deepEqual(await snapshotOf(engram), before);
      await assert.rejects(engram.call('get', { id: BROKEN_ID }), (error) =>
        EngramError.is(error, 'NOT_FOUND'),
      );
      await engram.call('remember', { content: 'The vault is sealed at night' });
      assert.equal(
        await lastSeq(engram),
        before.lastSeq + perRemember,
        'the failed write used no transaction number',
      );
      await engram.close();
      const again = await open(store);
      await assert.rejects(again.call('get', { id: BROKEN_ID }), (error) =>
        EngramError.is(error, 'NOT_FOUND'),
      );
      assert.equal(await lastSeq(again), before.lastSeq + perRemember);
    });

    it('two engines writing at once: every write applied once, each engine sees all of them', async () => {
      const store = await stores();
      const a = await open(store);
      const b = await open(store);
      const writes = (engram: Engram, name: string) =>
        Array.from({ length: 8 }, (_, i) =>
          engram.call('remember', { content: `Service ${name}${i} owns the ${name}${i} queue` }),
        );
      const same = { content: 'Both engines were sent this one request' };
      const results = await Promise.all([
        ...writes(a, 'alpha'),
        ...writes(b, 'beta'),
        a.callWithId('contract-both', 'remember', same),
        b.callWithId('contract-both', 'remember', same),
      ]);
      const ids = new Set(results.map((r) => (r as RememberAnswer).memory.id));
      assert.equal(ids.size, 17, '16 memories and one request answered twice alike');
      for (const engram of [a, b]) {
        const items = (await engram.call('list', { limit: 100 })).items;
        assert.deepEqual(new Set(items.map((m) => m.id)), ids);
        assert.ok(items.every((m) => m.confirmations === 1 && m.version === 1));
      }
      assert.equal(await lastSeq(a), await lastSeq(b));
    });

    it('a writer SIGKILLed while writing: a reopen has every write it acknowledged', async () => {
      const store = await stores();
      const writer = startWriter(store.writer.dbPath, 'crashing', 400, store.writer.env);
      await writer.waitForAcks(25);
      writer.child.kill('SIGKILL');
      await writer.exited;
      assert.ok(writer.acks.length >= 25, `the writer acknowledged writes: ${writer.stderr.join('')}`);
      assert.ok(writer.acks.length < 400, 'it was killed before it finished');
      const engram = await open(store);
      const items = (await engram.call('list', { limit: 1000 })).items;
      const kept = new Set(items.map((m) => m.id));
      assert.deepEqual(
        writer.acks.filter((id) => !kept.has(id)),
        [],
        'no acknowledged write is missing',
      );
      // At most the one write in flight at the kill went through without its acknowledgement.
      assert.ok(items.length <= writer.acks.length + 1, `${items.length} for ${writer.acks.length} acks`);
    });

    it("recall's text search: a memory's current words find it, through every engine and after a reopen", async () => {
      const store = await stores();
      const a = await open(store);
      const b = await open(store);
      const lexical = async (engram: Engram, query: string, extra: Record<string, unknown> = {}) =>
        (await engram.call('recall', { query, channels: ['lexical'], ...extra })).hits.map(
          (h) => h.memory.id,
        );
      const deploy = (await a.call('remember', { content: 'Deploys run from main through Jenkins' })).memory;
      const staging = (await a.call('remember', { content: 'Staging is rebuilt by Jenkins nightly' })).memory;
      await a.call('edit', {
        id: deploy.id,
        changes: { content: 'Deploys run from main through Buildkite' },
      });
      await a.call('invalidate', { id: staging.id, reason: 'staging is gone' });
      for (const engram of [a, b]) {
        assert.deepEqual(await lexical(engram, 'buildkite deploys'), [deploy.id], 'the new words find it');
        assert.deepEqual(await lexical(engram, 'jenkins'), [], 'old words and invalidated memories do not');
        assert.deepEqual(await lexical(engram, 'jenkins', { includeInactive: true }), [staging.id]);
      }
      await a.close();
      await b.close();
      const again = await open(store);
      assert.deepEqual(await lexical(again, 'buildkite'), [deploy.id]);
    });
  });
}

interface RememberAnswer {
  memory: { id: string };
}

async function lastSeq(engram: Engram): Promise<number> {
  return (await engram.call('stats', {})).database.lastSeq;
}

/** What a failed write must leave as it was: counts, the ledger, the memories, the journal position. */
async function snapshotOf(engram: Engram) {
  const stats = await engram.call('stats', {});
  return {
    counts: [stats.memories, stats.versions, stats.events, stats.entities, stats.relations],
    lastSeq: stats.database.lastSeq,
    events: (await engram.call('events', {})).events,
    memories: (await engram.call('list', {})).items,
  };
}

const BROKEN_ID = 'm_contract_broken';

/**
 * An import that inserts rows, then fails its last check: a new memory whose two versions are
 * both superseded, so none is current (made from the export of one memory of the store).
 */
async function brokenImport(engram: Engram): Promise<string> {
  const exported = (await engram.call('export', {})) as { text: string };
  const lines = exported.text.trim().split('\n');
  const memoryLine = lines.find((line) => line.includes('"_table":"memories"'));
  assert.ok(memoryLine, 'the export has a memory');
  const memory = JSON.parse(memoryLine) as Record<string, unknown>;
  const twice = [1, 2].map((version) =>
    JSON.stringify({ ...memory, id: BROKEN_ID, version, superseded_at: memory['recorded_at'] }),
  );
  return [lines[0], ...twice].join('\n');
}
