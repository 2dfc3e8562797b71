/**
 * What a drift check costs at scale, as the CLI pays it: `count` memories (docBlocks at the old
 * commit, docMemories.ts) remembered on a clone at the new commit with a synthetic lockfile of
 * `lockfileMb` MB committed on top (every memory word occurs in it), then `engram drift --all` run
 * three times as new processes of the built CLI: the first check (empty history), a re-check (the
 * history answers persisted in the database, nothing in any process's cache), and a re-check after
 * a new commit (HEAD moved). Each is timed (wall, and CPU of the process and its git children) with
 * its git calls counted through a logging git on PATH.
 *
 * `ENGRAM_BENCH_CPU_PROF=DIR` writes a V8 CPU profile of each run into DIR (node --cpu-prof).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RememberManyResult } from '../../../engine/memory/types';
import { writtenOrReported } from '../batchRejections';
import { call, git, openHost } from '../driftBench';
import { scaleMemories } from './docMemories';
import { syntheticLockfile } from './syntheticLockfile';

const CLI = path.resolve(__dirname, '../../../dist/cli.js');
const COMMITTER = ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com'];

export interface TimedRun {
  label: string;
  wallMs: number;
  /** User + system time of the CLI process and the git processes it waited for. */
  cpuMs: number;
  gitCalls: number;
}

export interface ScaleTiming {
  memories: number;
  /** How many of the memories are candidate doc blocks of README and docs (the rest top up). */
  candidates: number;
  lockfileBytes: number;
  runs: TimedRun[];
  /** Whether the three runs gave the same verdicts, statuses and memories. */
  sameReport: boolean;
  /** The 1-minute load average when the runs ended. */
  load: number;
}

export async function timeAtScale(
  gitDir: string,
  oldCommit: string,
  newCommit: string,
  options: { count: number; lockfileMb: number },
): Promise<ScaleTiming> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'engram-drift-scale-'));
  try {
    const ws = path.join(work, 'ws');
    git(work, ['clone', '-q', '--no-checkout', gitDir, ws]);
    git(ws, ['checkout', '-q', '--detach', newCommit]);
    const { memories, candidates } = scaleMemories(ws, oldCommit, options.count);
    const lockfile = syntheticLockfile(
      memories.map((m) => m.text),
      options.lockfileMb,
    );
    writeFileSync(path.join(ws, 'package-lock.json'), lockfile);
    git(ws, ['add', '-f', 'package-lock.json']);
    git(ws, [...COMMITTER, 'commit', '-q', '--no-verify', '-m', 'a large lockfile']);
    const dbPath = path.join(work, 'memory.db');
    const validFrom = Number(git(ws, ['show', '-s', '--format=%ct', oldCommit]).trim()) * 1000;
    const host = await openHost(dbPath, ws);
    try {
      await call(host, 'scan', {});
      for (let i = 0; i < memories.length; i += 500) {
        const results = await call<RememberManyResult[]>(host, 'rememberMany', {
          memories: memories.slice(i, i + 500).map((m) => ({
            content: m.text,
            validFrom,
            source: { file: m.file },
            layer: 'semantic',
            kind: 'fact',
            dedupe: false,
          })),
        });
        writtenOrReported(results, 'scale memories');
      }
    } finally {
      await host.close();
    }
    const loggingPath = loggingGit(work);
    const runs: TimedRun[] = [];
    const reports: string[] = [];
    for (const label of ['first check', 're-check', 're-check after a new commit']) {
      if (label.endsWith('commit'))
        git(ws, [...COMMITTER, 'commit', '-q', '--allow-empty', '-m', 'HEAD moves']);
      const run = checkInNewProcess(dbPath, ws, loggingPath, label);
      runs.push(run.timed);
      reports.push(run.report);
    }
    return {
      memories: memories.length,
      candidates,
      lockfileBytes: Buffer.byteLength(lockfile),
      runs,
      sameReport: reports.every((r) => r === reports[0]),
      load: os.loadavg()[0] ?? 0,
    };
  } finally {
    if (!process.env.ENGRAM_BENCH_KEEP) rmSync(work, { recursive: true, force: true });
    else process.stderr.write(`kept ${work}\n`);
  }
}

/** A directory holding a `git` that logs each call to `log` and runs the real git. */
function loggingGit(work: string): { bin: string; log: string } {
  const bin = path.join(work, 'bin');
  const log = path.join(work, 'git.log');
  const real = (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((d) => path.join(d, 'git'))
    .find(existsSync);
  if (!real) throw new Error('no git on PATH');
  mkdirSync(bin);
  // Each line: milliseconds the call took, then its arguments (ENGRAM_BENCH_GIT_LOG prints them).
  writeFileSync(
    path.join(bin, 'git'),
    `#!/bin/sh\nstart=$(date +%s%N)\n'${real}' "$@"\nrc=$?\necho "$(( ($(date +%s%N) - start) / 1000000 )) $*" >> '${log}'\nexit $rc\n`,
  );
  chmodSync(path.join(bin, 'git'), 0o755);
  return { bin, log };
}

function checkInNewProcess(
  dbPath: string,
  ws: string,
  logging: { bin: string; log: string },
  label: string,
): { timed: TimedRun; report: string } {
  writeFileSync(logging.log, '');
  const profile = process.env.ENGRAM_BENCH_CPU_PROF;
  const node = profile
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${path.resolve(profile)}`,
        `--cpu-prof-name=${path.basename(ws)}-${label.replace(/\W+/g, '-')}-${Date.now()}.cpuprofile`,
      ]
    : [];
  const run = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%e %U %S',
      process.execPath,
      ...node,
      CLI,
      '--db',
      dbPath,
      '--workspace',
      ws,
      '--json',
      'drift',
      '--all',
    ],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      env: { ...process.env, PATH: `${logging.bin}${path.delimiter}${process.env.PATH}` },
    },
  );
  if (run.status !== 0) throw new Error(`engram drift (${label}): ${run.stderr}`);
  const [wall, user, sys] = (run.stderr.trim().split('\n').pop() ?? '').split(' ').map(Number) as [
    number,
    number,
    number,
  ];
  // Verdicts, statuses and memories; `checked.extracted` differs (the first check extracts).
  const report = JSON.parse(run.stdout) as {
    memories: Array<{ id: string }>;
    verdicts: unknown;
    statuses: unknown;
  };
  const memories = report.memories.sort((a, b) => a.id.localeCompare(b.id));
  const calls = readFileSync(logging.log, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  if (process.env.ENGRAM_BENCH_GIT_LOG) process.stderr.write(`${label}:\n${calls.join('\n')}\n`);
  return {
    timed: {
      label,
      wallMs: Math.round(wall * 1000),
      cpuMs: Math.round((user + sys) * 1000),
      gitCalls: calls.length,
    },
    report: JSON.stringify([report.verdicts, report.statuses, memories]),
  };
}

/** The bench's "500 memories" line. */
export function scaleLine(t: ScaleTiming): string {
  const runs = t.runs
    .map((r) => `${r.label} ${r.wallMs} ms wall / ${r.cpuMs} ms CPU, ${r.gitCalls} git calls`)
    .join('; ');
  return `${t.memories} memories (${t.candidates} candidate doc blocks + ${t.memories - t.candidates} more; ${(t.lockfileBytes / 1e6).toFixed(1)} MB package-lock.json committed), new processes: ${runs}; same report ${t.sameReport}; load ${t.load.toFixed(1)}`;
}
