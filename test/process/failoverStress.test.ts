import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { lockPathFor, readLockOwner } from '../../engine/process/lockFile';
import type { CallerArgs } from './fixtures/caller';
import { readLines } from './fixtures/fileDispatcher';
import { sleep, spawnFixture, tempDir } from './helpers';
import type { Fixture } from './helpers';

const WRITERS = 4;
const CALLS_EACH = 250;
const CONCURRENCY = 4;
const MAX_KILLS = 10;
/** Paces the writers so that the run lasts several seconds: long enough to kill hosts mid-stream. */
const PACE_MS = 100;

function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  const repeated: string[] = [];
  for (const value of values) {
    if (seen.has(value)) repeated.push(value);
    seen.add(value);
  }
  return repeated;
}

void test('4 writers x 250 calls while the host is SIGKILLed at random: every acknowledged call is applied exactly once', async (t) => {
  const tmp = tempDir();
  const dbPath = path.join(tmp.dir, 'memory.db');
  const dataFile = path.join(tmp.dir, 'data.txt');
  const incarnations = new Map<number, number>();
  const killed = new Set<string>();
  const argsOf = (i: number): CallerArgs => ({
    dbPath,
    dataFile,
    ackFile: path.join(tmp.dir, `ack-${i}.txt`),
    clientName: `writer-${i}`,
    total: CALLS_EACH,
    concurrency: CONCURRENCY,
    paceMs: PACE_MS,
    incarnation: incarnations.get(i) ?? 0,
  });
  const running = new Map<number, Fixture>();
  const start = (i: number): void => void running.set(i, spawnFixture('caller', argsOf(i)));
  let kills = 0;
  try {
    for (let i = 0; i < WRITERS; i++) start(i);
    const deadline = Date.now() + 50_000;
    while (running.size > 0) {
      assert.ok(Date.now() < deadline, `writers still running: ${[...running.keys()].join(', ')}`);
      // Random points in the run: mid-call, mid-fsync, mid-failover, mid-startup of a new host.
      await sleep(150 + Math.random() * 300);
      for (const [i, fixture] of running) {
        if (fixture.child.exitCode === null) continue;
        const finished = fixture.events.some((e) => e.event === 'done') && fixture.child.exitCode === 0;
        assert.ok(finished, `writer ${i} failed: ${JSON.stringify(fixture.events)}\n${fixture.stderr()}`);
        running.delete(i);
      }
      if (kills >= MAX_KILLS) continue;
      const hostPid = readLockOwner(lockPathFor(dbPath))?.pid;
      const victim = [...running].find(([, f]) => f.pid === hostPid && f.child.exitCode === null);
      if (victim === undefined) continue;
      const [i, fixture] = victim;
      fixture.child.kill('SIGKILL');
      await fixture.exited;
      kills++;
      killed.add(`writer-${i}:${argsOf(i).incarnation}`);
      incarnations.set(i, argsOf(i).incarnation + 1);
      start(i); // The restarted writer resumes after its last recorded acknowledgement.
    }
  } finally {
    for (const fixture of running.values()) fixture.child.kill('SIGKILL');
  }

  const acked = Array.from({ length: WRITERS }, (_, i) => readLines(argsOf(i).ackFile)).flat();
  const applied = readLines(dataFile).map((line) => {
    const [requestId = '', tag = ''] = line.split('\t');
    return { requestId, tag };
  });
  tmp.remove();
  const appliedIds = new Set(applied.map((a) => a.requestId));
  const ackedIds = new Set(acked);
  const unacknowledged = applied.filter((a) => !ackedIds.has(a.requestId));
  t.diagnostic(
    `${kills} hosts killed; ${applied.length} calls applied, ${unacknowledged.length} never acknowledged`,
  );

  assert.ok(kills >= 3, `only ${kills} hosts were killed: the run proved too little`);
  assert.equal(acked.length, WRITERS * CALLS_EACH);
  assert.equal(ackedIds.size, WRITERS * CALLS_EACH, 'acknowledged request ids are distinct');
  assert.deepEqual(duplicates(applied.map((a) => a.requestId)), [], 'no request id was applied twice');
  assert.deepEqual(duplicates(applied.map((a) => a.tag)), [], 'no logical call was applied twice');
  assert.deepEqual(
    acked.filter((id) => !appliedIds.has(id)),
    [],
    'every acknowledged call is in the data file',
  );
  // Only a writer killed with calls in flight may leave applied calls it never saw acknowledged.
  const orphans = unacknowledged.filter((a) => !killed.has(a.tag.split(':').slice(0, 2).join(':')));
  assert.deepEqual(orphans, [], 'applied calls without acknowledgement from writers that were not killed');
});
