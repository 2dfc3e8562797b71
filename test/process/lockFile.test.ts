import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { acquireLock, inspectLock, lockPathFor } from '../../engine/process/lockFile';
import type { HeldLock, LockOwner } from '../../engine/process/lockFile';
import { processStartTime } from '../../engine/process/processInfo';
import { deadPid, spawnFixture, tempDir } from './helpers';
import type { Fixture } from './helpers';

const linux = process.platform === 'linux';

function writeLock(dbPath: string, owner: Partial<LockOwner>): void {
  const full: LockOwner = {
    pid: process.pid,
    startedAt: processStartTime(process.pid),
    hostname: os.hostname(),
    endpoint: '/nowhere.sock',
    createdAt: Date.now(),
    token: 'someone-else',
    ...owner,
  };
  writeFileSync(lockPathFor(dbPath), JSON.stringify(full));
}

function age(file: string, ms: number): void {
  const when = (Date.now() - ms) / 1000;
  utimesSync(file, when, when);
}

function mustAcquire(result: Awaited<ReturnType<typeof acquireLock>>): HeldLock {
  assert.ok(result.acquired, `expected to acquire, holder: ${JSON.stringify(result)}`);
  return result.lock;
}

void describe('lock file', () => {
  let tmp: ReturnType<typeof tempDir>;
  let dbPath: string;
  beforeEach(() => {
    tmp = tempDir();
    dbPath = path.join(tmp.dir, 'memory.db');
  });
  afterEach(() => tmp.remove());

  void test('records pid, start time, hostname, endpoint and creation time in the lock file', async () => {
    const before = Date.now();
    const lock = mustAcquire(await acquireLock(dbPath, '/run/e.sock'));
    const content = JSON.parse(readFileSync(`${dbPath}.lock`, 'utf8')) as LockOwner;
    assert.equal(content.pid, process.pid);
    assert.equal(content.hostname, os.hostname());
    assert.equal(content.endpoint, '/run/e.sock');
    assert.ok(content.createdAt >= before && content.createdAt <= Date.now());
    if (linux) assert.equal(typeof content.startedAt, 'number');
    assert.equal(content.startedAt, processStartTime(process.pid));
    assert.deepEqual(lock.owner, content);
    assert.ok(lock.isHeld());
  });

  void test('a lock held by a live process is not taken; once that process dies it is', async () => {
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await new Promise((resolve) => holder.once('spawn', resolve));
      const pid = holder.pid!;
      writeLock(dbPath, { pid, startedAt: processStartTime(pid), endpoint: '/live.sock' });
      const refused = await acquireLock(dbPath, '/mine.sock');
      assert.equal(refused.acquired, false);
      assert.equal(!refused.acquired && refused.holder?.pid, pid);
      assert.equal(!refused.acquired && refused.holder?.endpoint, '/live.sock');
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
    }
    const lock = mustAcquire(await acquireLock(dbPath, '/mine.sock'));
    assert.equal(lock.owner.pid, process.pid);
  });

  void test('a stale lock from a dead pid is taken over and leaves no debris', async () => {
    writeLock(dbPath, { pid: await deadPid(), startedAt: null });
    const state = inspectLock(lockPathFor(dbPath));
    assert.equal(state.kind, 'stale');
    const lock = mustAcquire(await acquireLock(dbPath, '/mine.sock'));
    const content = JSON.parse(readFileSync(`${dbPath}.lock`, 'utf8')) as LockOwner;
    assert.equal(content.token, lock.owner.token);
    assert.deepEqual(readdirSync(tmp.dir).sort(), ['memory.db.lock']);
  });

  void test('a live pid with a different start time is a reused pid: stale', { skip: !linux }, async () => {
    writeLock(dbPath, { pid: process.pid, startedAt: processStartTime(process.pid)! - 1 });
    mustAcquire(await acquireLock(dbPath, '/mine.sock'));
  });

  void test('a live lock of this very process (same pid and start time) is respected', async () => {
    writeLock(dbPath, {});
    const result = await acquireLock(dbPath, '/mine.sock');
    assert.equal(result.acquired, false);
  });

  void test('a lock recorded on another machine is never judged stale from here', async () => {
    writeLock(dbPath, { pid: await deadPid(), hostname: `not-${os.hostname()}` });
    assert.equal((await acquireLock(dbPath, '/mine.sock')).acquired, false);
  });

  void test('an empty lock file is "starting" for 2 s, then stale', async () => {
    writeFileSync(`${dbPath}.lock`, '');
    const fresh = await acquireLock(dbPath, '/mine.sock');
    assert.deepEqual(fresh, { acquired: false, holder: null });
    age(`${dbPath}.lock`, 2_500);
    mustAcquire(await acquireLock(dbPath, '/mine.sock'));
  });

  void test('an unparsable lock file older than the grace period is stale', async () => {
    writeFileSync(`${dbPath}.lock`, '{"pid": 12');
    age(`${dbPath}.lock`, 3_000);
    mustAcquire(await acquireLock(dbPath, '/mine.sock'));
  });

  void test('release removes the lock only while it is still ours, and is idempotent', async () => {
    const lock = mustAcquire(await acquireLock(dbPath, '/mine.sock'));
    writeLock(dbPath, { token: 'new-owner' });
    assert.equal(lock.isHeld(), false);
    lock.release();
    assert.ok(existsSync(`${dbPath}.lock`), 'someone else’s lock must survive our release');

    const ours = mustAcquire(await acquireLock(`${dbPath}2`, '/mine.sock'));
    ours.release();
    ours.release();
    assert.equal(existsSync(`${dbPath}2.lock`), false);
  });

  void test('a takeover mutex abandoned long ago is broken', async () => {
    writeLock(dbPath, { pid: await deadPid() });
    mkdirSync(`${dbPath}.lock.takeover`);
    age(`${dbPath}.lock.takeover`, 20_000);
    mustAcquire(await acquireLock(dbPath, '/mine.sock'));
    assert.deepEqual(readdirSync(tmp.dir), ['memory.db.lock']);
  });

  void test('a fresh takeover mutex makes a takeover wait instead of barging in', async () => {
    writeLock(dbPath, { pid: await deadPid() });
    mkdirSync(`${dbPath}.lock.takeover`);
    const started = Date.now();
    const attempt = acquireLock(dbPath, '/mine.sock');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(existsSync(`${dbPath}.lock.takeover`), true);
    // The other taker finishes without taking (say it found the lock live after all): we proceed.
    rmdirSync(`${dbPath}.lock.takeover`);
    mustAcquire(await attempt);
    assert.ok(Date.now() - started >= 300);
  });
});

void describe('lock races between processes', () => {
  const racers: Fixture[] = [];
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(async () => {
    tmp = tempDir();
    for (let i = 0; i < 6; i++) racers.push(spawnFixture('lockRacer', {}));
    await Promise.all(racers.map((r) => r.waitFor((e) => e.event === 'ready')));
  });
  afterEach(async () => {
    for (const racer of racers.splice(0)) {
      racer.send({ cmd: 'exit' });
      await racer.exited;
    }
    tmp.remove();
  });

  const scenarios: [string, (dbPath: string) => Promise<void>][] = [
    ['no lock yet', () => Promise.resolve()],
    ['lock of a dead pid', async (dbPath) => writeLock(dbPath, { pid: await deadPid() })],
    [
      'empty lock older than the grace period',
      (dbPath) => {
        writeFileSync(`${dbPath}.lock`, '');
        age(`${dbPath}.lock`, 1_000);
        return Promise.resolve();
      },
    ],
  ];

  void test('six processes racing for one lock: exactly one wins, in every scenario', async () => {
    let round = 0;
    for (let repeat = 0; repeat < 4; repeat++) {
      for (const [name, prepare] of scenarios) {
        round++;
        const dbPath = path.join(tmp.dir, `race-${round}.db`);
        await prepare(dbPath);
        const at = Date.now() + 150;
        for (const racer of racers) racer.send({ cmd: 'race', round, dbPath, at });
        const results = await Promise.all(
          racers.map((r) => r.waitFor((e) => e.event === 'raced' && e.round === round)),
        );
        const winners = results.filter((r) => r.acquired === true);
        assert.equal(winners.length, 1, `round ${round} (${name}): ${winners.length} winners`);
        const content = JSON.parse(readFileSync(`${dbPath}.lock`, 'utf8')) as LockOwner;
        assert.equal(content.pid, winners[0]!.pid, `round ${round} (${name}): the lock names the winner`);
      }
    }
  });
});
