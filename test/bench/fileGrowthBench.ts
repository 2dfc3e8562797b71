/**
 * The cost of a commit that grows the database file (issue 21): a durable store grown by commits
 * of one 1 MiB row each, to 250 MB, with no worker and no snapshot running, so the process's CPU
 * time during a commit is the commit's own, whatever else the machine runs. Without room kept
 * ahead of the file (engine/store/fileCapacity.ts), MEMFS copies the whole file at every 12.5 %
 * of growth: eight commits between 100 and 250 MB.
 *
 * Usage: node --import tsx test/bench/fileGrowthBench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../engine/host';
import { DurableDatabase } from '../../engine/store/durableDatabase';
import { loadSqlJs } from '../../engine/store/sqlite';
import { median, round, runStamp } from './stats';

const MIB = 2 ** 20;
const sqlWasmPath = createRequire(__filename).resolve('sql.js/dist/sql-wasm.wasm');

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-file-growth-'));
  try {
    const db = await DurableDatabase.open({
      path: path.join(dir, 'memory.db'),
      sql: await loadSqlJs(sqlWasmPath),
      logger: silentLogger,
      clock: Date.now,
      migrations: [
        {
          version: 1,
          name: 'rows',
          up: (tx) => tx.run('CREATE TABLE rows (id INTEGER PRIMARY KEY, b BLOB)'),
        },
      ],
      snapshot: { idleMs: 3_600_000, maxJournalBytes: 2 ** 40 },
    });
    const commits: { mib: number; wallMs: number; cpuMs: number }[] = [];
    const row = new Uint8Array(MIB);
    for (let mib = 1; mib <= 250; mib++) {
      row.fill(mib & 255);
      const cpu = process.cpuUsage();
      const started = performance.now();
      db.write((tx) => tx.run('INSERT INTO rows (id, b) VALUES (?, ?)', [mib, row]));
      const used = process.cpuUsage(cpu);
      commits.push({ mib, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 });
    }
    const large = commits.filter((c) => c.mib > 100);
    const cpu = large.map((c) => c.cpuMs);
    const stamp = runStamp();
    process.stdout.write(
      `${stamp.date} ${stamp.machine}: 150 commits growing the file from 100 to 250 MB: CPU per commit ` +
        `median ${round(median(cpu), 1)} ms, max ${round(Math.max(...cpu), 1)} ms, ${cpu.filter((c) => c > 50).length} over 50 ms; ` +
        `wall max ${round(Math.max(...large.map((c) => c.wallMs)), 1)} ms; ` +
        `RSS ${Math.round(process.memoryUsage().rss / MIB)} MB; load ${stamp.load} -> ${os.loadavg()[0]?.toFixed(1)}\n`,
    );
    await db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `fileGrowthBench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
