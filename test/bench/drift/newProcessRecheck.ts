/**
 * What a drift re-check from a new process costs (the CLI's case; the labelled bench re-checks in
 * its own process, where this process's history cache answers). The candidate doc blocks of a
 * labelled repository's old commit are remembered on a clone at its new commit, then
 * `engram drift` runs three times (the last after a new commit) as separate processes of the
 * built CLI, each timed (wall, and CPU of the process and its git children) with its git calls
 * counted through a logging git on PATH.
 *
 * Usage: node --import tsx test/bench/drift/newProcessRecheck.ts NAME=GIT_DIR (after a build)
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openHost } from '../driftBench';
import { docBlocks, isCandidate } from './docBlocks';
import type { LabelFile } from './labelFile';

const CLI = path.resolve(__dirname, '../../../dist/cli.js');

function git(cwd: string, args: string[]): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

async function main(): Promise<void> {
  const m = /^([\w.-]+)=(.+)$/.exec(process.argv[2] ?? '');
  if (!m) throw new Error('usage: newProcessRecheck NAME=GIT_DIR');
  const [, name, source] = m as unknown as [string, string, string];
  const labels = JSON.parse(
    readFileSync(path.resolve(__dirname, '../drift-labels', `${name}.json`), 'utf8'),
  ) as LabelFile;
  const work = mkdtempSync(path.join(os.tmpdir(), 'engram-recheck-'));
  try {
    const ws = path.join(work, 'ws');
    git(work, ['clone', '-q', '--no-checkout', path.resolve(source), ws]);
    git(ws, ['checkout', '-q', labels.new.commit]);
    const texts = git(ws, ['ls-tree', '-r', '--name-only', labels.old.commit])
      .split('\n')
      .filter((f) => /^(README\.md|docs\/.*\.md)$/i.test(f) && !/changelog|history/i.test(f))
      .flatMap((file) =>
        docBlocks(git(ws, ['show', `${labels.old.commit}:${file}`]))
          .filter((b) => isCandidate(b.text))
          .map((b) => b.text),
      );
    const dbPath = path.join(work, 'memory.db');
    const host = await openHost(dbPath, ws);
    try {
      await host.dispatch('scan', {}, { requestId: 'scan', client: 'bench' });
      const memories = texts.map((content) => ({
        content,
        validFrom: Date.parse(labels.old.date),
        dedupe: false,
      }));
      await host.dispatch('rememberMany', { memories }, { requestId: 'remember', client: 'bench' });
    } finally {
      await host.close();
    }
    const bin = path.join(work, 'bin');
    const log = path.join(work, 'git.log');
    const real = (process.env.PATH ?? '')
      .split(path.delimiter)
      .map((d) => path.join(d, 'git'))
      .find(existsSync);
    spawnSync('mkdir', [bin]);
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho x >> '${log}'\nexec '${real}' "$@"\n`);
    chmodSync(path.join(bin, 'git'), 0o755);
    const reports: string[] = [];
    for (const label of ['first check', 're-check', 're-check after a new commit']) {
      if (label.endsWith('commit'))
        git(ws, [
          '-c',
          'user.name=bench',
          '-c',
          'user.email=bench@example.com',
          'commit',
          '-q',
          '--allow-empty',
          '-m',
          'HEAD moves',
        ]);
      writeFileSync(log, '');
      const run = spawnSync(
        '/usr/bin/time',
        [
          '-f',
          '%e %U %S',
          process.execPath,
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
          env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
        },
      );
      if (run.status !== 0) throw new Error(run.stderr);
      const [wall, user, sys] = run.stderr.trim().split('\n').pop()!.split(' ').map(Number) as [
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
      reports.push(JSON.stringify([report.verdicts, report.statuses, memories]));
      const calls = readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l !== '').length;
      process.stdout.write(
        `${name} ${label} (new process, ${texts.length} memories): ${Math.round(wall * 1000)} ms wall, ${Math.round((user + sys) * 1000)} ms CPU with git, ${calls} git calls\n`,
      );
    }
    process.stdout.write(`same report: ${reports.every((r) => r === reports[0])}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`newProcessRecheck: ${String((error as Error).stack ?? error)}\n`);
  process.exitCode = 1;
});
