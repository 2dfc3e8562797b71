// Capture ingest throughput: a synthetic Claude Code transcript (generated here, no real session),
// read into a fresh database three times. Reference in the same run: reading the file and
// JSON.parse of every line, which any reader pays. Also the longest the event loop was blocked
// while the ingest ran (a batch: its redaction, parsing and transaction), the span a host's
// main thread would be held.
// With --redaction DIR (a gitleaks checkout or mirror), redaction recall and precision on gitleaks'
// rule test cases instead (redaction/redactionBench.ts), and with --trufflehog DIR also on
// trufflehog's detector tests (redaction/trufflehogBench.ts).
// Usage: node --import tsx test/bench/captureIngestBench.ts [turns] [--redaction GITLEAKS_DIR [--trufflehog TRUFFLEHOG_DIR]]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ingestSource } from '../../engine/capture/ingest';
import { forgetCleanTexts } from '../../engine/extract/storedText';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import { splitLines } from '../../engine/capture/rawRecords';
import { syntheticClaudeSession } from '../capture/syntheticSession';
import { redactionLines } from './redaction/redactionBench';
import { trufflehogLines } from './redaction/trufflehogBench';
import { machine, median, ms, round } from './stats';

const SQL_WASM = require.resolve('sql.js/dist/sql-wasm.wasm');
const redactionAt = process.argv.indexOf('--redaction');
const turns = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 1000);
const cwd = '/home/dev/shop';
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-capture-bench-'));
  const file = path.join(dir, 'bench.jsonl');
  writeFileSync(file, syntheticClaudeSession(turns, cwd));
  const bytes = readFileSync(file).length;
  const mb = bytes / 2 ** 20;
  const reference: number[] = [];
  const ingest: number[] = [];
  const longestBatch: number[] = [];
  const ingestCpu: number[] = [];
  const longestBatchCpu: number[] = [];
  for (let run = 0; run < 3; run++) {
    let start = process.hrtime.bigint();
    const { records } = splitLines(readFileSync(file));
    for (const r of records) JSON.parse(r.text);
    reference.push(ms(start));

    const host = await EngineDispatcher.open({
      dbPath: path.join(dir, `db${run}`, 'memory.db'),
      sqlWasmPath: SQL_WASM,
      logger: silentLogger,
      clock: Date.now,
      embedding: null,
      snapshot: { idleMs: 600_000 },
    });
    // The longest the event loop waited for its next turn while the ingest ran: what a host's
    // main thread would have been blocked for.
    let longest = 0;
    let last = process.hrtime.bigint();
    // The same block in CPU time (this process's, all its threads): on a shared machine a wall
    // block also holds the time spent waiting for a core, which a quiet machine would not wait.
    let longestCpu = 0;
    let lastCpu = process.cpuUsage();
    let running = true;
    const tick = () => {
      const now = process.hrtime.bigint();
      const cpu = process.cpuUsage(lastCpu);
      longest = Math.max(longest, Number(now - last) / 1e6);
      longestCpu = Math.max(longestCpu, (cpu.user + cpu.system) / 1000);
      last = now;
      lastCpu = process.cpuUsage();
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    // Each run as a new process would write it: no text known clean from the run before.
    forgetCleanTexts();
    start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    await ingestSource(host.store, { agent: 'claude-code', path: file }, { root: cwd });
    ingest.push(ms(start));
    ingestCpu.push(cpuMs(cpuStart));
    running = false;
    longestBatch.push(longest);
    longestBatchCpu.push(longestCpu);
    await host.close();
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `capture ingest, ${turns} turns (${turns * 5} records, ${round(mb)} MB), ${machine()}, load ${os
      .loadavg()
      .map((l) => round(l))
      .join(' ')}`,
  );
  console.log(
    `  reference (read + split + JSON.parse): median ${round(median(reference))} ms = ${round(mb / (median(reference) / 1000))} MB/s`,
  );
  console.log(
    `  ingest (redact + parse + store):        median ${round(median(ingest))} ms = ${round(mb / (median(ingest) / 1000))} MB/s (runs ${ingest.map((t) => round(t)).join(', ')} ms)`,
  );
  console.log(
    `  ingest CPU (this process):              median ${round(median(ingestCpu))} ms = ${round(mb / (median(ingestCpu) / 1000))} MB/s of CPU (runs ${ingestCpu.map((t) => round(t)).join(', ')} ms)`,
  );
  console.log(
    `  longest event-loop block while ingesting: median ${round(median(longestBatch))} ms wall (runs ${longestBatch.map((t) => round(t)).join(', ')}), ${round(median(longestBatchCpu))} ms CPU (runs ${longestBatchCpu.map((t) => round(t)).join(', ')})`,
  );
}

if (redactionAt === -1) void main();
else {
  const dir = process.argv[redactionAt + 1];
  if (!dir) throw new Error('--redaction needs the path of a gitleaks checkout or mirror');
  const started = process.hrtime.bigint();
  const trufflehogAt = process.argv.indexOf('--trufflehog');
  const trufflehog = trufflehogAt === -1 ? undefined : process.argv[trufflehogAt + 1];
  const lines = [...redactionLines(dir), ...(trufflehog ? trufflehogLines(trufflehog) : [])];
  console.log(
    `${lines.join('\n')}\n  ${round(ms(started))} ms, ${machine()}, load ${os
      .loadavg()
      .map((l) => round(l))
      .join(' ')}`,
  );
}
