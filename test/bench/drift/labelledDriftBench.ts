/**
 * The hand-labelled drift benchmark: for each repository of test/bench/drift-labels/, its labelled
 * memories (blocks of its docs at an old commit) are remembered into a fresh database on a clone at
 * the new commit, the workspace is scanned as the extension would, and drift is checked, fixed in a
 * dry run, and checked again from a new host. Prints precision, recall, extraction recall,
 * attribution and repairs per repository and claim type, with first-check and re-check times.
 *
 * Then, per repository, the "500 memories" line: first check and re-checks as new CLI processes at
 * scale with a lockfile committed (scaleTiming.ts).
 *
 * Usage: npm run bench:drift -- --repo NAME=GIT_DIR [--repo ...] [--json] [--explore] [--misses]
 *   [--lockfile-mb N] [--no-timing | --timing-only] [--scale N]
 * NAME is a label file's name (pino for pino.json); GIT_DIR a clone or bare mirror holding both
 * commits. `--explore` lists every flag on all candidate doc blocks (for development repositories).
 * `--claims` prints every claim the check extracted with its verdict (development repositories only).
 * `--misses` lists a development repository's labelled claims not extracted or not flagged.
 * `--no-timing` skips the run at scale (slow); `--timing-only` runs only it (no quality figures:
 * how held-out repositories are timed without looking at their results); `--scale` sets its
 * number of memories (500).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DriftReport, MemoryDrift } from '../../../engine/drift/driftReport';
import type { RememberManyResult } from '../../../engine/memory/types';
import { call, openHost } from '../driftBench';
import { candidateBlocks } from './docMemories';
import type { LabelFile, LabelledMemory } from './labelFile';
import { ratio, scoreRepository } from './labelScoring';
import type { MemoryUnderScore, RepositoryScore } from './labelScoring';
import { scaleLine, timeAtScale } from './scaleTiming';
import type { ScaleTiming } from './scaleTiming';
import { syntheticLockfile } from './syntheticLockfile';

const LABELS = path.resolve(__dirname, '../drift-labels');
/** Which repositories the engine was developed on; the others are reported only. */
const DEVELOPMENT = new Set([
  'pino',
  'mocha',
  'nodemon',
  'winston',
  'koa',
  'fastify',
  'execa',
  'chokidar',
  'http-proxy-middleware',
  'helmet',
  'lru-cache',
  'uuid',
  'node-fetch',
  'undici',
]);

/** The root name of the workspace's own package-lock.json, if it has one. */
function lockfileRootName(ws: string): string | undefined {
  const file = path.join(ws, 'package-lock.json');
  if (!existsSync(file)) return undefined;
  return /^\{\s*"name"\s*:\s*"([^"\n]+)"/.exec(readFileSync(file, 'utf8').slice(0, 4096))?.[1];
}

function git(cwd: string, args: string[]): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

interface Options {
  repos: Map<string, string>;
  json: boolean;
  explore: boolean;
  /** List the labelled claims missed (not extracted, or false and not flagged): development only. */
  misses: boolean;
  /** Print every extracted claim with its verdict: development only. */
  claims: boolean;
  lockfileMb: number;
  /** Whether to time the check at scale, and whether to do only that. */
  timing: 'no' | 'also' | 'only';
  scale: number;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    repos: new Map(),
    json: false,
    explore: false,
    misses: false,
    claims: false,
    lockfileMb: 2,
    timing: 'also',
    scale: 500,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--json') options.json = true;
    else if (arg === '--explore') options.explore = true;
    else if (arg === '--misses') options.misses = true;
    else if (arg === '--claims') options.claims = true;
    else if (arg === '--lockfile-mb') options.lockfileMb = Number(argv[++i]);
    else if (arg === '--no-timing') options.timing = 'no';
    else if (arg === '--timing-only') options.timing = 'only';
    else if (arg === '--scale') options.scale = Number(argv[++i]);
    else if (arg === '--repo') {
      const m = /^([\w.-]+)=(.+)$/.exec(argv[++i] ?? '');
      if (!m) throw new Error('--repo expects NAME=GIT_DIR');
      options.repos.set(m[1] as string, path.resolve(m[2] as string));
    } else throw new Error(`unknown argument ${arg}`);
  }
  if (options.repos.size === 0) throw new Error('usage: labelledDriftBench --repo NAME=GIT_DIR [...]');
  if (!Number.isInteger(options.scale) || options.scale <= 0)
    throw new Error(`--scale expects a positive whole number, got ${options.scale}`);
  if (!(options.lockfileMb >= 0))
    throw new Error(`--lockfile-mb expects a size in MB, got ${options.lockfileMb}`);
  return options;
}

function readLabels(name: string): LabelFile {
  return JSON.parse(readFileSync(path.join(LABELS, `${name}.json`), 'utf8')) as LabelFile;
}

function blockText(
  ws: string,
  commit: string,
  memory: Pick<LabelledMemory, 'file' | 'startLine' | 'endLine'>,
): string {
  const lines = git(ws, ['show', `${commit}:${memory.file}`]).split('\n');
  return lines.slice(memory.startLine - 1, memory.endLine).join('\n');
}

/** Every candidate block of the docs at a commit, as unlabelled memories (explore mode). */
function candidateMemories(ws: string, commit: string): LabelledMemory[] {
  return candidateBlocks(ws, commit).map((b) => ({
    id: `${b.file}:${b.startLine}`,
    file: b.file,
    startLine: b.startLine,
    endLine: b.endLine,
    sha1OfText: createHash('sha1').update(b.text).digest('hex'),
    selection: 'random' as const,
    claims: [],
  }));
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await run();
  const used = process.cpuUsage(cpu);
  return {
    value,
    wallMs: Math.round(performance.now() - started),
    cpuMs: Math.round((used.user + used.system) / 1000),
  };
}

/** The old and new commits of a repository: its labels', or (explore) late 2021 and HEAD. */
function commitsOf(gitDir: string, labels: LabelFile | undefined): { oldCommit: string; newCommit: string } {
  return {
    oldCommit: labels?.old.commit ?? git(gitDir, ['log', '-1', '--before=2021-11-01', '--format=%H']).trim(),
    newCommit: labels?.new.commit ?? git(gitDir, ['rev-parse', 'HEAD']).trim(),
  };
}

async function benchRepository(name: string, gitDir: string, options: Options) {
  const labels = options.explore ? undefined : readLabels(name);
  const work = mkdtempSync(path.join(os.tmpdir(), `engram-labelled-drift-${name}-`));
  try {
    const ws = path.join(work, 'ws');
    git(work, ['clone', '-q', '--no-checkout', gitDir, ws]);
    const { oldCommit, newCommit } = commitsOf(gitDir, labels);
    git(ws, ['checkout', '-q', '--detach', newCommit]);
    const oldTime = Number(git(ws, ['show', '-s', '--format=%ct', oldCommit]).trim()) * 1000;
    const chosen = labels?.memories ?? candidateMemories(ws, oldCommit);
    const memories = chosen.map((label) => ({ label, text: blockText(ws, oldCommit, label) }));
    const mismatched = memories.filter(
      (m) => createHash('sha1').update(m.text).digest('hex') !== m.label.sha1OfText,
    );
    if (options.lockfileMb > 0)
      writeFileSync(
        path.join(ws, 'package-lock.json'),
        syntheticLockfile(
          memories.map((m) => m.text),
          options.lockfileMb,
          lockfileRootName(ws),
        ),
      );
    const dbPath = path.join(work, 'memory.db');
    let host = await openHost(dbPath, ws);
    const ids: string[] = [];
    let scan;
    try {
      scan = await timed(() => call(host, 'scan', {}));
      for (let i = 0; i < memories.length; i += 500) {
        const batch = memories.slice(i, i + 500).map((m) => ({
          content: m.text,
          validFrom: oldTime,
          source: { file: m.label.file },
          layer: 'semantic',
          kind: 'fact',
          dedupe: false,
        }));
        const results = await call<RememberManyResult[]>(host, 'rememberMany', { memories: batch });
        for (const r of results) {
          // Scores pair each label with its memory: one that cannot be written is a labelling error.
          if (r.outcome === 'rejected')
            throw new Error(`${name}: labelled memory ${i + r.index} rejected: ${r.error.message}`);
          ids.push(r.memory.id);
        }
      }
    } finally {
      await host.close();
    }
    host = await openHost(dbPath, ws);
    let first;
    let fix;
    try {
      first = await timed(() => call<DriftReport>(host, 'drift', { all: true }));
      if (process.env.DRIFT_DEBUG)
        process.stderr.write(
          `${JSON.stringify({ verdicts: first.value.verdicts, statuses: first.value.statuses, checked: first.value.checked })}\n`,
        );
      fix = await call<DriftReport>(host, 'drift', { all: true, fix: true, dryRun: true });
    } finally {
      await host.close();
    }
    host = await openHost(dbPath, ws);
    let again;
    try {
      again = await timed(() => call<DriftReport>(host, 'drift', { all: true }));
    } finally {
      await host.close();
    }
    const byId = new Map<string, MemoryDrift>(first.value.memories.map((m) => [m.id, m]));
    const under: MemoryUnderScore[] = memories.map((m, i) => ({
      ...m,
      drift: byId.get(ids[i] as string),
      fix: (fix.fix?.actions ?? []).filter((a) => a.id === ids[i]),
    }));
    return {
      name,
      split: DEVELOPMENT.has(name) ? 'development' : 'held-out',
      old: oldCommit,
      new: newCommit,
      memories: memories.length,
      mismatchedTexts: mismatched.map((m) => m.label.id),
      scanMs: scan.wallMs,
      firstCheck: { wallMs: first.wallMs, cpuMs: first.cpuMs },
      recheck: { wallMs: again.wallMs, cpuMs: again.cpuMs },
      score: labels ? scoreRepository(under) : undefined,
      flags: exploreFlags(under),
      claims: options.claims && DEVELOPMENT.has(name) ? claimLines(under) : [],
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function exploreFlags(memories: readonly MemoryUnderScore[]) {
  return memories.flatMap((m) =>
    (m.drift?.claims ?? [])
      .filter((c) => (c.verdict === 'stale' || c.verdict === 'moved') && c.evidence.doubtful !== true)
      .map((c) => ({
        memory: m.label.id,
        kind: c.kind,
        subject: c.subject,
        quote: m.text.slice(Math.max(0, c.span[0] - 60), c.span[1] + 60).replace(/\s+/g, ' '),
        reason: c.evidence.reason,
        commit: c.evidence.commit
          ? `${c.evidence.commit.hash.slice(0, 10)} ${c.evidence.commit.message.slice(0, 60)}`
          : undefined,
        repair: c.evidence.repair?.text ?? c.evidence.target,
      })),
  );
}

/** Every claim the check extracted, one line each, to see why a labelled claim was or was not flagged. */
function claimLines(memories: readonly MemoryUnderScore[]): string[] {
  return memories.flatMap((m) =>
    (m.drift?.claims ?? []).map(
      (c) =>
        `${m.label.id} ${c.kind} ${c.subject} -> ${c.verdict}${c.evidence.doubtful === true ? ' (doubtful)' : ''}: ${c.evidence.reason}${c.evidence.commit ? ` [${c.evidence.commit.hash.slice(0, 10)}]` : ''}`,
    ),
  );
}

function printScore(name: string, split: string, score: RepositoryScore): void {
  const line = (type: string, c: RepositoryScore['total']) =>
    `  ${type.padEnd(22)} labelled ${String(c.labelled).padStart(4)}  false ${String(c.falseClaims).padStart(3)}  extraction ${ratio(c.extracted, c.labelled)}  flags ${String(c.flags).padStart(3)}  precision ${ratio(c.rightFlags, c.flags)}  recall ${ratio(c.driftFound, c.falseExtracted)} (of all drifted ${ratio(c.driftFound, c.falseClaims)})  attribution ${ratio(c.attributed, c.attributable)}`;
  process.stdout.write(`${name} (${split})\n`);
  for (const [type, counts] of Object.entries(score.byType).sort())
    process.stdout.write(`${line(type, counts)}\n`);
  process.stdout.write(`${line('all', score.total)}\n`);
  const m = score.memories;
  process.stdout.write(
    `  memories: ${m.total}, shown drifted ${m.shownDrifted}, really false ${m.reallyFalse}, precision ${ratio(m.shownAndFalse, m.shownDrifted)}, recall ${ratio(m.shownAndFalse, m.reallyFalse)}\n`,
  );
  const r = score.repairs;
  process.stdout.write(
    `  repairs: rewrites ${r.rewrites} (correct ${r.correct}, damaging ${r.damaging}), invalidations ${r.invalidations} (justified ${r.justified}), reviews ${r.reviews}\n`,
  );
}

/** What development needs to see; a held-out repository's misses stay unread. */
function printMisses(split: string, score: RepositoryScore): void {
  if (split !== 'development') {
    process.stdout.write('  (misses of a held-out repository are not listed)\n');
    return;
  }
  for (const u of score.unextracted)
    process.stdout.write(
      `  not extracted ${u.memory} ${u.type} ${String(u.holds)}: ${u.quote.slice(0, 120)}\n`,
    );
  for (const m of score.missed)
    process.stdout.write(
      `  false, not flagged ${m.memory} ${m.type} ${m.subject} (extracted ${m.extracted})\n`,
    );
  for (const w of score.repairs.wrongActions)
    process.stdout.write(`  unjustified ${w.action} ${w.memory}: ${w.reason.slice(0, 200)}\n`);
  for (const f of score.flagsOnTrue)
    process.stdout.write(`  flag on a true claim ${f.memory} ${f.type} ${f.subject}: ${f.reason}\n`);
  for (const a of score.misattributed)
    process.stdout.write(
      `  blamed on another commit ${a.memory} ${a.subject}: label ${a.expected.slice(0, 10)}, engine ${a.got.map((g) => g.slice(0, 10)).join(' ')}\n`,
    );
  for (const f of score.flagsOnNothing)
    process.stdout.write(`  flag on no labelled claim ${f.memory} ${f.kind} ${f.subject}: ${f.reason}\n`);
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const known = new Set(readdirSync(LABELS).map((f) => f.replace(/\.json$/, '')));
  const results = [];
  const scale: Array<{ name: string; timing: ScaleTiming }> = [];
  for (const [name, gitDir] of options.repos) {
    if (!options.explore && !known.has(name)) throw new Error(`no label file ${name}.json in ${LABELS}`);
    if (options.timing !== 'only') results.push(await benchRepository(name, gitDir, options));
    if (options.timing === 'no') continue;
    const { oldCommit, newCommit } = commitsOf(gitDir, options.explore ? undefined : readLabels(name));
    const timing = await timeAtScale(gitDir, oldCommit, newCommit, {
      count: options.scale,
      lockfileMb: options.lockfileMb,
    });
    scale.push({ name, timing });
  }
  const document = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cpus, ${os.cpus()[0]?.model ?? ''}`,
    load: os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' '),
    results,
    scale,
  };
  if (options.json) {
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return;
  }
  process.stdout.write(`${document.date} ${document.machine}, load ${document.load}\n`);
  for (const name of options.repos.keys()) {
    const r = results.find((result) => result.name === name);
    if (r) {
      if (r.score) printScore(r.name, r.split, r.score);
      if (r.score && options.misses) printMisses(r.split, r.score);
      if (options.explore) for (const f of r.flags) process.stdout.write(`${JSON.stringify(f)}\n`);
      for (const line of r.claims) process.stdout.write(`  claim ${line}\n`);
      process.stdout.write(
        `  ${r.memories} memories; scan ${r.scanMs} ms; first check ${r.firstCheck.wallMs} ms wall / ${r.firstCheck.cpuMs} ms CPU; re-check ${r.recheck.wallMs} ms wall / ${r.recheck.cpuMs} ms CPU${r.mismatchedTexts.length ? `; texts differing from the labels: ${r.mismatchedTexts.join(', ')}` : ''}\n`,
      );
    } else process.stdout.write(`${name}\n`);
    const timing = scale.find((s) => s.name === name)?.timing;
    if (timing) process.stdout.write(`  ${scaleLine(timing)}\n`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `labelledDriftBench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
