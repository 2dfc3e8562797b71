import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import { runConsolidation } from '../../engine/lifecycle/consolidationRun';
import { workerPlanner } from '../../engine/lifecycle/consolidationPlan';
import { sourceWorkerScripts } from '../../engine/process/workerScripts';
import { bundledFixture } from '../support/fixtureBundle';
import { openTestHost, TestClock } from '../support/host';
import type { TestHost } from '../support/host';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

const CRASH = path.join(__dirname, '..', 'fixtures', 'consolidationCrash.ts');

/** `topics` pairs of episodes, each pair naming a file of its own, each episode read twice. */
async function pairedEpisodes(t: TestHost, topics: number, first = 0): Promise<string[][]> {
  const pairs: string[][] = [];
  for (let topic = first; topic < first + topics; topic++) {
    const pair: string[] = [];
    for (const what of ['retries requests on timeout', 'logs every retry it makes']) {
      const made = (await t.call('remember', {
        content: `The worker in src/topic${topic}/part${topic}.ts ${what}.`,
        layer: 'episodic',
        dedupe: false,
      })) as { memory: { id: string } };
      pair.push(made.memory.id);
    }
    pairs.push(pair);
  }
  for (const id of [...pairs.flat(), ...pairs.flat()]) await t.call('get', { id });
  t.host.store.flushReads();
  return pairs;
}

/** Per pair: 'done' (both superseded by one active consolidated memory), 'open' (both active) or what else. */
function pairStates(t: TestHost, pairs: string[][]): string[] {
  return t.host.store.read((r) =>
    pairs.map((pair) => {
      const rows = pair.map((id) =>
        r.get<{ status: string; by: string | null }>(
          'SELECT status, superseded_by AS by FROM memories WHERE id = ? AND superseded_at IS NULL',
          [id],
        )!,
      );
      if (rows.every((row) => row.status === 'active')) return 'open';
      const by = rows[0]!.by;
      const made =
        by === null
          ? undefined
          : r.value<string>('SELECT status FROM memories WHERE id = ? AND superseded_at IS NULL', [by]);
      return rows.every((row) => row.status === 'superseded' && row.by === by) && made === 'active'
        ? 'done'
        : `half: ${JSON.stringify(rows)}`;
    }),
  );
}

const runEvents = (t: TestHost) =>
  t.host.store.read((r) =>
    r
      .all<{ data: string }>("SELECT data FROM events WHERE type = 'consolidation-run' ORDER BY seq")
      .map((row) => JSON.parse(row.data) as Record<string, unknown>),
  );

/* Issue 21, section 3: consolidation in the background, in slices, incremental and resumable. */
describe('lifecycle: consolidation in slices', () => {
  it('applies the plan in slices, each its own transaction, with the event loop free between them', async () => {
    const t = await openTestHost();
    const pairs = await pairedEpisodes(t, 6);
    const seq = t.host.store.db.stats().seq;
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const run = await runConsolidation(t.host.store, { dryRun: false, sliceMs: 0 });
    clearInterval(ticker);
    assert.equal(run.clusters.length, 6);
    assert.equal(run.created.length, 6);
    assert.equal(run.touched, 12);
    assert.equal(run.slices, 6, 'one cluster per slice when a slice may take no time');
    assert.ok(t.host.store.db.stats().seq - seq >= 6, 'a transaction per slice');
    assert.ok(ticks >= 3, `timers ran between slices (${ticks} ticks)`);
    assert.deepEqual(pairStates(t, pairs), Array(6).fill('done'));
    const [event] = runEvents(t);
    assert.deepEqual(
      [event!['planned'], event!['created'], event!['touched'], event!['slices']],
      [6, 6, 12, 6],
    );
    assert.equal(typeof event!['workMs'], 'number');
    await t.host.close();
  });

  it('fills a slice with clusters until its time is up', async () => {
    const t = await openTestHost();
    const pairs = await pairedEpisodes(t, 4);
    const run = await runConsolidation(t.host.store, { dryRun: false, sliceMs: 60_000 });
    assert.deepEqual([run.slices, run.created.length], [1, 4]);
    assert.deepEqual(pairStates(t, pairs), Array(4).fill('done'));
    await t.host.close();
  });

  it('runs again only when memories changed or were accessed since the last run', async () => {
    const t = await openTestHost();
    await pairedEpisodes(t, 2);
    const first = await runConsolidation(t.host.store, { dryRun: false });
    assert.equal(first.created.length, 2);
    // Its own consolidated memories are changes after its watermark: one more run sees them.
    assert.equal((await runConsolidation(t.host.store, { dryRun: false })).skipped, false);
    const seq = t.host.store.db.stats().seq;
    const idle = await runConsolidation(t.host.store, { dryRun: false });
    assert.equal(idle.skipped, true);
    assert.equal(t.host.store.db.stats().seq, seq, 'a skipped run writes nothing');
    assert.equal(runEvents(t).length, 2);
    const more = await pairedEpisodes(t, 1, 2);
    const next = await runConsolidation(t.host.store, { dryRun: false });
    assert.deepEqual(
      next.clusters.map((c) => [...c.members].sort()),
      [[...more[0]!].sort()],
    );
    assert.equal(runEvents(t).length, 3);
    // A day later a run comes due even with nothing changed (faded episodes fade with time alone).
    t.clock.advance(25 * 60 * 60 * 1000);
    assert.equal((await runConsolidation(t.host.store, { dryRun: false })).skipped, false);
    await t.host.close();
  });

  it('after a kill between slices, every cluster is whole or untouched and the next run does the rest', async () => {
    const t = await openTestHost();
    const pairs = await pairedEpisodes(t, 5);
    await t.host.close();
    const child = spawn(process.execPath, [bundledFixture(CRASH), t.dbPath, String(t.clock.now)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const signal = await new Promise((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
    assert.equal(signal, 'SIGKILL', stderr);

    const again = await openTestHost({ dbPath: t.dbPath, clock: t.clock });
    const states = pairStates(again, pairs);
    assert.equal(states.filter((s) => s === 'done').length, 1, JSON.stringify(states));
    assert.equal(states.filter((s) => s === 'open').length, 4, JSON.stringify(states));
    assert.equal(runEvents(again).length, 0, 'the killed run recorded no run');
    const rest = await runConsolidation(again.host.store, { dryRun: false });
    assert.equal(rest.skipped, false, 'an unfinished run leaves no watermark: the next one runs');
    assert.equal(rest.created.length, 4);
    assert.deepEqual(pairStates(again, pairs), Array(5).fill('done'));
    await again.host.close();
  });

  it('shows a sliced run as one run in lifecycle health, and a run that made nothing as none', async () => {
    const t = await openTestHost();
    await pairedEpisodes(t, 3);
    // Each slice at its own time, as with a real clock.
    const run = await runConsolidation(t.host.store, {
      dryRun: false,
      sliceMs: 0,
      afterSlice: () => t.clock.advance(1000),
    });
    assert.equal(run.slices, 3);
    t.clock.advance(2 * 24 * 60 * 60 * 1000);
    assert.equal((await runConsolidation(t.host.store, { dryRun: false })).created.length, 0);
    const { runs } = await t.call('lifecycleHealth', {});
    assert.deepEqual(
      runs.map((r) => [r.consolidated, r.superseded]),
      [[3, 6]],
    );
    await t.host.close();
  });

  it('stops at the next slice when aborted, leaving the rest for the next run', async () => {
    const t = await openTestHost();
    const pairs = await pairedEpisodes(t, 4);
    const stop = new AbortController();
    const run = await runConsolidation(t.host.store, {
      dryRun: false,
      sliceMs: 0,
      signal: stop.signal,
      afterSlice: (slice) => slice === 2 && stop.abort(),
    });
    assert.deepEqual([run.interrupted, run.created.length], [true, 2]);
    assert.equal(runEvents(t).length, 0);
    assert.deepEqual(pairStates(t, pairs).sort(), ['done', 'done', 'open', 'open']);
    await t.host.close();
  });

  it('leaves a cluster whose member changed after the plan for the next run', async () => {
    const t = await openTestHost();
    const pairs = await pairedEpisodes(t, 2);
    const run = await runConsolidation(t.host.store, {
      dryRun: false,
      sliceMs: 0,
      // Between the first and the second slice, someone edits a member of the cluster still to come.
      afterSlice: (slice) => {
        const [open] = pairStates(t, pairs).flatMap((state, i) => (state === 'open' ? [pairs[i]!] : []));
        if (slice === 1) t.host.store.edit(open![0]!, { content: 'The worker there retries twice.' });
      },
    });
    assert.equal(run.created.length, 1);
    assert.deepEqual(pairStates(t, pairs).sort(), ['done', 'open']);
    await t.host.close();
  });
});

describe('lifecycle: the long-lived host consolidates on its schedule', () => {
  it('consolidates in its scheduled lifecycle run and records the run, when asked to', async () => {
    const t = await openTestHost({ lifecycleEveryMs: 200, consolidateOnSchedule: true });
    const pairs = await pairedEpisodes(t, 2);
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.deepEqual(pairStates(t, pairs), ['done', 'done']);
    assert.equal(runEvents(t)[0]?.['created'], 2);
    await t.host.close();

    // By default a scheduled run does not consolidate (its summaries still cost recall).
    const quiet = await openTestHost({ lifecycleEveryMs: 200 });
    const kept = await pairedEpisodes(quiet, 2);
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.deepEqual(pairStates(quiet, kept), ['open', 'open']);
    await quiet.host.close();
  });

  it('the consolidate method applies through the runner and records the run', async () => {
    const t = await openTestHost();
    const pairs = await pairedEpisodes(t, 3);
    const plan = await t.call('consolidate', {});
    assert.deepEqual([plan.dryRun, plan.clusters.length, runEvents(t).length], [true, 3, 0]);
    const done = await t.call('consolidate', { dryRun: false });
    assert.deepEqual([done.created.length, done.slices > 0], [3, true]);
    assert.deepEqual(pairStates(t, pairs), ['done', 'done', 'done']);
    assert.equal(runEvents(t).length, 1);
    await t.host.close();
  });
});

describe('lifecycle: consolidation planned in a worker', () => {
  it('plans on a copy of the database as it was when the run began, snapshots meanwhile or not', async () => {
    const dbPath = path.join(tempDir(), 'memory.db');
    const clock = new TestClock();
    const host = await EngineDispatcher.open({
      dbPath,
      sqlWasmPath: SQL_WASM_PATH,
      logger: silentLogger,
      clock: clock.read,
      snapshot: { idleMs: 60_000 },
      embedding: null,
      checkpointInWorker: true,
      checkpointWorkerMinBytes: 0,
    });
    let requests = 0;
    const t: TestHost = {
      host,
      dbPath,
      clock,
      call: async (method, params = {}) =>
        (await host.dispatch(method, params, { requestId: `w-${++requests}`, client: 'test' })) as never,
    };
    const pairs = await pairedEpisodes(t, 3);
    const onThread = await runConsolidation(host.store, { dryRun: true });
    const running = runConsolidation(host.store, { dryRun: true, plan: host.engine.planConsolidation });
    // While the worker starts: a new pair, then a snapshot that renames new files over the old ones.
    await pairedEpisodes(t, 1, 3);
    await host.store.db.snapshot();
    const inWorker = await running;
    assert.equal(inWorker.plannedIn, 'worker');
    assert.deepEqual(inWorker.clusters, onThread.clusters);
    // The plan in parts of two clusters: all of it arrives.
    const inParts = await runConsolidation(host.store, {
      dryRun: true,
      plan: workerPlanner(host.store.db, sourceWorkerScripts().consolidation, SQL_WASM_PATH, silentLogger, 2),
    });
    assert.equal(inParts.plannedIn, 'worker');
    assert.equal(inParts.clusters.length, 4);
    const applied = await t.call('consolidate', { dryRun: false });
    assert.deepEqual([applied.plannedIn, applied.created.length], ['worker', 4]);
    assert.deepEqual(pairStates(t, pairs), ['done', 'done', 'done']);
    await host.close();
  });
});
