import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { CompactionStep } from '../../engine/store/journalCompaction';
import { storeFiles } from '../../engine/store/storeFiles';
import { openDurable } from '../support/durable';
import { bundledFixture } from '../support/fixtureBundle';
import { tempDir } from '../support/temp';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'compactionKilled.ts');
const STEPS: CompactionStep[] = ['copying', 'copied', 'synced', 'renamed'];
const ITEMS = {
  version: 1,
  name: 'items',
  up: (tx: { run(sql: string): void }) => tx.run('CREATE TABLE items (id TEXT PRIMARY KEY, v TEXT)'),
};

/** Runs the fixture until it kills itself at `step`; returns the ids it acknowledged. */
async function killedAt(dbPath: string, step: CompactionStep): Promise<{ acks: string[]; during: number }> {
  const child = spawn(process.execPath, [bundledFixture(FIXTURE), dbPath, step], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, killed) => resolve(killed)),
  );
  assert.equal(signal, 'SIGKILL', `the writer was not killed at ${step}: ${err}`);
  const acks = [...out.matchAll(/^ack (\S+)$/gm)].map((m) => m[1]!);
  const during = Number(/^during (\d+)$/m.exec(out)?.[1] ?? 0);
  return { acks, during };
}

describe('a SIGKILL during journal compaction', () => {
  for (const step of STEPS) {
    it(`at step "${step}" loses no acknowledged write, those made while it copied included`, async () => {
      const dbPath = path.join(tempDir(), 'memory.db');
      const { acks, during } = await killedAt(dbPath, step);
      assert.ok(during >= 1, `${during} writes landed while the journal was compacted`);

      const db = await openDurable(dbPath, [ITEMS]);
      const ids = new Set(db.read((r) => r.all<{ id: string }>('SELECT id FROM items')).map((r) => r.id));
      const missing = acks.filter((id) => !ids.has(id));
      assert.deepEqual(missing, [], `${missing.length} of ${acks.length} acknowledged writes lost`);
      assert.equal(ids.size, acks.length, 'no row that was never acknowledged');
      assert.equal(
        db.read((r) => r.value<string>('PRAGMA integrity_check')),
        'ok',
      );
      assert.ok(!existsSync(storeFiles(dbPath).journalTemp), 'the half-made copy was removed on open');

      // The store goes on: written, compacted again and reopened, nothing is missing.
      db.write((tx) => tx.run('INSERT INTO items (id, v) VALUES (?, ?)', ['after', 'x']));
      await db.snapshot();
      db.write((tx) => tx.run('INSERT INTO items (id, v) VALUES (?, ?)', ['last', 'x']));
      await db.snapshot();
      await db.close();
      const reopened = await openDurable(dbPath, [ITEMS]);
      assert.equal(
        reopened.read((r) => r.value<number>('SELECT count(*) FROM items')),
        acks.length + 2,
      );
      await reopened.close();
    });
  }
});
