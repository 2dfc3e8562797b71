/**
 * Scanner benchmark on real repositories: a cold scan and a rescan after one file changes, each
 * run as the CLI in a child process (`engram --db <tmp> --workspace <repo> scan --json`, no
 * embeddings), so start-up, the worker thread and the memory derivation are all counted and the
 * peak RSS is the whole process's. Then the editor's path in a warm host (a child holding
 * dist/engine.js's EngineDispatcher open, as the extension's engine does): a full rescan, and one-file
 * changes through the method with `paths: [file]` (what the file watcher sends), timed around
 * the call, p50 over the repetitions. A benchmark, not a test: it prints figures.
 *
 * Usage: npm run bench:scan -- [--json] [REPO_DIR...]
 *   REPO_DIR  work trees to scan (default: the ones in /tmp/bench-repos, e.g. ky, hono and
 *             typescript-eslint cloned there; their code is never committed here)
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ScanResult } from '../../engine/code/codeWorkspace';
import { parseFloor } from './parseFloor';
import type { ParseFloor } from './parseFloor';
import { machine, round } from './stats';

const DEFAULT_REPOS_DIR = '/tmp/bench-repos';
const repoRoot = path.resolve(__dirname, '../..');
const cli = path.join(repoRoot, 'dist/cli.js');

/** Loaded before the CLI in the child: records the process's peak RSS (KiB) and CPU time (all threads) when it exits. */
const RSS_PRELOAD = `process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeFileSync(process.env.ENGRAM_BENCH_RSS_FILE, JSON.stringify({ maxRSS: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 })); });\n`;

/** Extensions the rescan may touch, with the line comment each language takes. */
const COMMENT: Record<string, string> = {
  '.ts': '//',
  '.tsx': '//',
  '.js': '//',
  '.py': '#',
  '.go': '//',
  '.rs': '//',
};

/**
 * The warm host, run by node in a child: opens the benchmark's database with the workspace; edits
 * FILE and rescans `paths: [FILE]` in the fresh host (worker start, the full walk that primes the
 * resolution cache, grammar load); edits it again and does a full rescan; then REPS times appends a comment to FILE
 * and rescans `paths: [FILE]`, timing each call; it puts the original back.
 * Prints one JSON line: {freshMs, fullMs, targetedMs[], changed[], memories[]}.
 */
const WARM_HOST_SCRIPT = `
const fs = require('node:fs');
const path = require('node:path');
const [dist, db, repo, file, comment, reps] = process.argv.slice(2);
const { EngineDispatcher, silentLogger } = require(path.join(dist, 'engine.js'));
(async () => {
  const host = await EngineDispatcher.open({
    dbPath: db, sqlWasmPath: path.join(dist, 'sql-wasm.wasm'), logger: silentLogger, clock: Date.now,
    embedding: null, code: { root: repo, grammarsDirectory: path.join(dist, 'grammars') },
  });
  let n = 0;
  const call = async (params) => {
    const started = performance.now();
    const result = await host.dispatch('scan', params, { requestId: 'bench-' + ++n, client: 'bench' });
    return { result, ms: performance.now() - started };
  };
  const absolute = path.join(repo, file);
  const original = fs.readFileSync(absolute);
  const out = { freshMs: 0, fullMs: 0, targetedMs: [], changed: [], memories: [] };
  const edit = (i) =>
    fs.writeFileSync(absolute, Buffer.concat([original, Buffer.from('\\n' + comment + ' engram scan bench ' + i + '\\n')]));
  try {
    edit('fresh');
    out.freshMs = (await call({ tokens: false, paths: [file] })).ms;
    edit('full');
    out.fullMs = (await call({ tokens: false })).ms;
    for (let i = 0; i < Number(reps); i++) {
      edit(i);
      const { result, ms } = await call({ tokens: false, paths: [file] });
      out.targetedMs.push(ms);
      out.changed.push(...result.changes.changed);
      out.memories.push(result.memories.added);
    }
  } finally {
    fs.writeFileSync(absolute, original);
    await call({ tokens: false, paths: [file] });
    await host.close();
  }
  process.stdout.write(JSON.stringify(out));
})().catch((error) => { console.error(error); process.exit(1); });
`;

/** One-file rescans in the warm host: enough for a stable median on a busy machine. */
const WARM_REPETITIONS = 9;

interface WarmFigures {
  /** The one-file rescan in a just-opened host: what an edit costs after the worker idled out. */
  freshHostMs: number;
  fullRescanMs: number;
  targeted: {
    /** The first one-file rescan after the full rescan: the code paths are not yet optimised by V8. */
    firstMs: number;
    p50Ms: number;
    minMs: number;
    maxMs: number;
    runs: number;
    changed: string[];
    memoriesAdded: number[];
  };
}

function warmHost(work: string, db: string, repo: string, file: string): WarmFigures {
  const script = path.join(work, 'warmHost.cjs');
  writeFileSync(script, WARM_HOST_SCRIPT);
  const child = spawnSync(
    process.execPath,
    [
      script,
      path.join(repoRoot, 'dist'),
      db,
      repo,
      file,
      COMMENT[path.extname(file)] ?? '//',
      String(WARM_REPETITIONS),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, ENGRAM_EMBEDDING: 'off' } },
  );
  if (child.status !== 0)
    throw new Error(`warm host on ${repo} failed (${child.status}): ${child.stderr.trim()}`);
  const out = JSON.parse(child.stdout) as {
    freshMs: number;
    fullMs: number;
    targetedMs: number[];
    changed: string[];
    memories: number[];
  };
  const sorted = [...out.targetedMs].sort((a, b) => a - b);
  return {
    freshHostMs: Math.round(out.freshMs),
    fullRescanMs: Math.round(out.fullMs),
    targeted: {
      firstMs: Math.round(out.targetedMs[0] ?? 0),
      p50Ms: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
      minMs: Math.round(sorted[0] ?? 0),
      maxMs: Math.round(sorted[sorted.length - 1] ?? 0),
      runs: sorted.length,
      changed: [...new Set(out.changed)],
      memoriesAdded: out.memories,
    },
  };
}

interface ScanRun {
  result: ScanResult;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
}

interface RepoFigures {
  repo: string;
  files: number;
  mb: number;
  coldWallS: number;
  coldCpuS: number;
  coldScanS: number;
  /** The same parsed files through web-tree-sitter alone, in the same run (parseFloor.ts). */
  floor: ParseFloor;
  filesPerS: number;
  mbPerS: number;
  peakRssMb: number;
  symbols: number;
  tokenRatio: number | null;
  rescan: { file: string; scanMs: number; wallMs: number; changed: string[]; peakRssMb: number };
  warm: WarmFigures;
}

function runScan(work: string, db: string, repo: string, extra: string[]): ScanRun {
  const rssFile = path.join(work, 'rss');
  const started = performance.now();
  const child = spawnSync(
    process.execPath,
    [
      '--require',
      path.join(work, 'rss.cjs'),
      cli,
      '--db',
      db,
      '--workspace',
      repo,
      '--json',
      'scan',
      ...extra,
    ],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      env: { ...process.env, ENGRAM_EMBEDDING: 'off', ENGRAM_BENCH_RSS_FILE: rssFile },
    },
  );
  const wallMs = performance.now() - started;
  if (child.status !== 0) throw new Error(`scan of ${repo} failed (${child.status}): ${child.stderr.trim()}`);
  const usage = JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRSS: number; cpuMs: number };
  return {
    result: JSON.parse(child.stdout) as ScanResult,
    wallMs,
    cpuMs: usage.cpuMs,
    peakRssMb: usage.maxRSS / 1024,
  };
}

/** A source file near the middle of the scanned ones: a typical module, the same one every run. */
function fileToTouch(paths: string[]): string {
  const sources = paths.filter((p) => COMMENT[path.extname(p)] !== undefined).sort();
  const chosen = sources[Math.floor(sources.length / 2)];
  if (chosen === undefined) throw new Error('no source file to change');
  return chosen;
}

function benchRepo(repo: string): RepoFigures {
  const work = mkdtempSync(path.join(os.tmpdir(), 'engram-scanbench-'));
  try {
    writeFileSync(path.join(work, 'rss.cjs'), RSS_PRELOAD);
    const db = path.join(work, 'memory.db');
    const cold = runScan(work, db, repo, []);
    const scanned = cold.result.changes.added;
    const bytes = scanned.reduce((sum, p) => sum + statSync(path.join(repo, p)).size, 0);
    const touched = fileToTouch(scanned);
    const absolute = path.join(repo, touched);
    const original = readFileSync(absolute);
    let again: ScanRun;
    try {
      appendFileSync(absolute, `\n${COMMENT[path.extname(touched)]} engram scan bench\n`);
      again = runScan(work, db, repo, ['--no-tokens']);
    } finally {
      writeFileSync(absolute, original);
    }
    const warm = warmHost(work, db, repo, touched);
    const floor = parseFloor(repo, scanned, path.join(repoRoot, 'dist/grammars'));
    const seconds = cold.wallMs / 1000;
    return {
      repo,
      files: cold.result.files,
      mb: round(bytes / 2 ** 20, 1),
      coldWallS: round(seconds, 1),
      coldCpuS: round(cold.cpuMs / 1000, 1),
      floor,
      coldScanS: round(cold.result.millis / 1000, 1),
      filesPerS: Math.round(cold.result.files / seconds),
      mbPerS: round(bytes / 2 ** 20 / seconds, 2),
      peakRssMb: Math.round(cold.peakRssMb),
      symbols: cold.result.symbols,
      tokenRatio: cold.result.tokenRatio?.ratio ?? null,
      rescan: {
        file: touched,
        scanMs: again.result.millis,
        wallMs: Math.round(again.wallMs),
        changed: again.result.changes.changed,
        peakRssMb: Math.round(again.peakRssMb),
      },
      warm,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function defaultRepos(): string[] {
  if (!existsSync(DEFAULT_REPOS_DIR)) return [];
  return readdirSync(DEFAULT_REPOS_DIR)
    .map((name) => path.join(DEFAULT_REPOS_DIR, name))
    .filter((dir) => statSync(dir).isDirectory());
}

function render(r: RepoFigures): string {
  return [
    `${path.basename(r.repo)}: ${r.files} files, ${r.mb} MB, ${r.symbols} symbols, token ratio ${r.tokenRatio ?? '-'}`,
    `  cold scan: ${r.coldWallS} s wall, ${r.coldCpuS} s CPU (index ${r.coldScanS} s), ${r.filesPerS} files/s, ${r.mbPerS} MB/s, peak RSS ${r.peakRssMb} MB`,
    `  parse floor (web-tree-sitter alone, the ${r.floor.files} parsed files, same run): one thread ${r.floor.oneThread.ms} ms wall / ${r.floor.oneThread.cpuMs} ms CPU, two threads ${r.floor.twoThreads.ms} ms; cold scan = ${round((r.coldWallS * 1000) / r.floor.oneThread.ms, 1)}x the one-thread floor`,
    `  one file changed (${r.rescan.file}): scan ${r.rescan.scanMs} ms, wall ${r.rescan.wallMs} ms (process start and database load included), peak RSS ${r.rescan.peakRssMb} MB`,
    `  host: one file changed in a just-opened host ${r.warm.freshHostMs} ms; warm: one file changed, full rescan ${r.warm.fullRescanMs} ms; one file changed, scan {paths: [file]}: p50 ${r.warm.targeted.p50Ms} ms (min ${r.warm.targeted.minMs}, max ${r.warm.targeted.maxMs}, first ${r.warm.targeted.firstMs}, ${r.warm.targeted.runs} runs)`,
  ].join('\n');
}

function main(): void {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const repos = args.filter((a) => !a.startsWith('--')).map((a) => path.resolve(a));
  const targets = repos.length > 0 ? repos : defaultRepos();
  if (targets.length === 0) {
    console.error(`no repositories: pass work trees as arguments, or clone some into ${DEFAULT_REPOS_DIR}`);
    process.exit(1);
  }
  if (!existsSync(cli)) {
    console.error(`${cli} is missing: run npm run build first`);
    process.exit(1);
  }
  const header = {
    date: new Date().toISOString().slice(0, 10),
    machine: machine(),
    loadAverage: round(os.loadavg()[0] ?? 0, 1),
  };
  const results: RepoFigures[] = [];
  if (!json) console.log(`scan benchmark, ${header.date}, ${header.machine}, load ${header.loadAverage}`);
  for (const repo of targets) {
    const figures = benchRepo(repo);
    results.push(figures);
    if (!json) console.log(render(figures));
  }
  if (json) console.log(JSON.stringify({ ...header, repos: results }, null, 2));
}

main();
