/**
 * Scanner benchmark on real repositories: a cold scan and a rescan after one file changes, each
 * run as the CLI in a child process (`engram --db <tmp> --workspace <repo> scan --json`, no
 * embeddings), so start-up, the worker thread and the memory derivation are all counted and the
 * peak RSS is the whole process's. A benchmark, not a test: it prints figures.
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
import { machine, round } from './stats';

const DEFAULT_REPOS_DIR = '/tmp/bench-repos';
const repoRoot = path.resolve(__dirname, '../..');
const cli = path.join(repoRoot, 'dist/cli.js');

/** Loaded before the CLI in the child: records the process's peak RSS (KiB) when it exits. */
const RSS_PRELOAD = `process.on('exit', () => require('node:fs').writeFileSync(process.env.ENGRAM_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n`;

/** Extensions the rescan may touch, with the line comment each language takes. */
const COMMENT: Record<string, string> = {
  '.ts': '//',
  '.tsx': '//',
  '.js': '//',
  '.py': '#',
  '.go': '//',
  '.rs': '//',
};

interface ScanRun {
  result: ScanResult;
  wallMs: number;
  peakRssMb: number;
}

interface RepoFigures {
  repo: string;
  files: number;
  mb: number;
  coldWallS: number;
  coldScanS: number;
  filesPerS: number;
  mbPerS: number;
  peakRssMb: number;
  symbols: number;
  tokenRatio: number | null;
  rescan: { file: string; scanMs: number; wallMs: number; changed: string[]; peakRssMb: number };
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
  return {
    result: JSON.parse(child.stdout) as ScanResult,
    wallMs,
    peakRssMb: Number(readFileSync(rssFile, 'utf8')) / 1024,
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
    const seconds = cold.wallMs / 1000;
    return {
      repo,
      files: cold.result.files,
      mb: round(bytes / 2 ** 20, 1),
      coldWallS: round(seconds, 1),
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
    `  cold scan: ${r.coldWallS} s wall (index ${r.coldScanS} s), ${r.filesPerS} files/s, ${r.mbPerS} MB/s, peak RSS ${r.peakRssMb} MB`,
    `  one file changed (${r.rescan.file}): scan ${r.rescan.scanMs} ms, wall ${r.rescan.wallMs} ms (process start and database load included), peak RSS ${r.rescan.peakRssMb} MB`,
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
