// Commit-link precision on a held-out set: a public repository whose developers record their
// agent sessions with Entire (entireio/cli, github.com/entireio/cli): each session's Claude Code
// transcript is kept on the branch `entire/checkpoints/v1` (`<id[0:2]>/<id[2:]>/<n>/full.jsonl`,
// its `metadata.json` naming the session), and each commit made with a session carries a trailer
// `Entire-Checkpoint: <id>`. The trailer is the ground truth, written by the tool when the commit
// was made, not by Engram: a link (session, commit) is right when the commit's checkpoint lists
// the session. Links to commits with no trailer are counted apart (no label). The repository is
// not in this one: pass a clone or mirror in ENGRAM_ENTIRE_BENCH_REPO; without it, nothing is
// measured. Each session's longest transcript is read (a later checkpoint holds more of it), its
// working directory replaced by the clone's (as Engram on the author's machine would see it);
// sessions of other agents are left out.
// Usage: ENGRAM_ENTIRE_BENCH_REPO=/path/to/cli node --import tsx test/bench/entireLinkBench.ts [maxSessions]
// The sessions are split in two halves by a rule fixed before any wrong link was looked at: a
// session (its transcript's id, as Entire names it, without the date) is in the tuning half when
// the first byte of the sha256 of its id is even, else in the reporting half. Each link and each
// (session, commit) pair of the trailers counts in its session's half; the bench prints both
// halves and all. The linker may be studied and changed on the tuning half only:
// ENGRAM_ENTIRE_BENCH_WRONG=1 lists the tuning half's wrong links and never the reporting half's.
// ENGRAM_ENTIRE_BENCH_HALF=tuning reads the tuning half's transcripts only (to study it without
// ever reading the other half's). ENGRAM_ENTIRE_BENCH_HASH=1 also prints a hash of each capture table's rows (the temporary
// directory's path, or what a cut output keeps of its name, written as <dir>), to compare what two
// versions of the ingest stored. Also printed: the reader's parse coverage of these transcripts, and
// retrieval by commit message (commitMessageRecall.ts) once the sessions' memories are distilled.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ingestSource } from '../../engine/capture/ingest';
import { linkCommits } from '../../engine/capture/link/commitLinks';
import type { MemoryStore } from '../../engine/memory/memoryStore';
import { dumpCapture } from '../capture/captureDb';
import { openBenchHost } from './benchHost';
import { commitMessageRecall, distilSessions } from './commitMessageRecall';
import { machine, round } from './stats';

const BRANCH = 'entire/checkpoints/v1';
const source = process.env['ENGRAM_ENTIRE_BENCH_REPO'];
const onlyHalf = process.env['ENGRAM_ENTIRE_BENCH_HALF'];
const maxSessions = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? Infinity);

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} in ${cwd}: ${run.stderr}`);
  return run.stdout;
}

/** Older versions of Entire prefixed a session's id with its date (`2026-01-20-<uuid>`). */
function bare(session: string): string {
  return session.replace(/^\d{4}-\d{2}-\d{2}-/, '');
}

export type Half = 'tuning' | 'reporting';

/** The half a session belongs to (see the header): fixed by its id alone, never by its links. */
export function halfOf(session: string): Half {
  const first = createHash('sha256').update(bare(session)).digest()[0] ?? 0;
  return first % 2 === 0 ? 'tuning' : 'reporting';
}

interface Transcript {
  session: string;
  checkpoint: string;
  blob: string;
  size: number;
}

/** Every session transcript of the checkpoints branch, and which sessions each checkpoint lists. */
function checkpoints(root: string): { transcripts: Transcript[]; sessionsOf: Map<string, Set<string>> } {
  const files = git(root, 'ls-tree', '-r', '-l', BRANCH)
    .split('\n')
    .map((line) => /^\S+ blob (\S+)\s+(\d+)\t(\S+)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ blob: m[1] as string, size: Number(m[2]), file: m[3] as string }));
  const blobs = new Map(files.map((f) => [f.file, f]));
  const transcripts: Transcript[] = [];
  const sessionsOf = new Map<string, Set<string>>();
  for (const f of files) {
    const m = /^([0-9a-f]{2})\/([0-9a-f]+)\/(\d+)\/metadata\.json$/.exec(f.file);
    if (!m) continue;
    const meta = JSON.parse(git(root, 'cat-file', 'blob', f.blob)) as { session_id?: string; agent?: string };
    const checkpoint = `${m[1]}${m[2]}`;
    const transcript = blobs.get(f.file.replace(/metadata\.json$/, 'full.jsonl'));
    if (!meta.session_id) continue;
    const session = bare(meta.session_id);
    sessionsOf.set(checkpoint, (sessionsOf.get(checkpoint) ?? new Set()).add(session));
    if (transcript && meta.agent !== 'Gemini CLI')
      transcripts.push({
        session,
        checkpoint,
        blob: transcript.blob,
        size: transcript.size,
      });
  }
  return { transcripts, sessionsOf };
}

const crashCopy = process.env['ENGRAM_ENTIRE_BENCH_CRASH'] !== undefined;

/** Opens the copy a SIGKILL at the end of the ingest would have left, and says how long it took. */
async function timeReplay(crashDir: string): Promise<void> {
  const journalBytes = statSync(path.join(crashDir, 'db', 'memory.db.journal')).size;
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  const host = await openBenchHost(crashDir);
  const cpu = process.cpuUsage(cpuStarted);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(
    `  after a kill: journal ${round(journalBytes / 1048576)} MiB, database ${round(statSync(path.join(crashDir, 'db', 'memory.db')).size / 1048576)} MiB; open ${round(ms / 1000)} s (CPU ${round((cpu.user + cpu.system) / 1e6)} s)`,
  );
  await host.close();
}

/** One line per capture table: its rows and a hash of them, the same whatever directory the run used. */
function printTableHashes(store: MemoryStore, dir: string): void {
  const tables = {
    ...dumpCapture(store),
    capture_commit_links: store.read((r) =>
      r.all('SELECT * FROM capture_commit_links ORDER BY session_id, commit_sha, path'),
    ),
  };
  for (const [name, rows] of Object.entries(tables)) {
    const hash = createHash('sha256');
    for (const row of rows) {
      // A record's content hash is of its text, which holds the directory: the text is compared instead.
      const { content_hash: _, ...compared } = row as Record<string, unknown>;
      // A tool's output is kept up to 4,000 characters: one may end inside the directory's name.
      const text = JSON.stringify(compared).split(dir).join('<dir>');
      hash.update(text.replace(/engram-entire-bench-[A-Za-z0-9]{0,6}/g, '<dir>')).update('\n');
    }
    console.log(`  ${name}: ${rows.length} rows, sha256 ${hash.digest('hex').slice(0, 16)}`);
  }
}

interface Link {
  session_id: string;
  commit_sha: string;
}

interface Score {
  links: number;
  labelled: number;
  right: number;
  exact: number;
  found: number;
  truth: number;
  wrong: Link[];
}

/** Links against the trailers' labels, and the trailers' (session, commit) pairs of `read` found. */
function scoreLinks(
  links: readonly Link[],
  label: ReadonlyMap<string, ReadonlySet<string>>,
  entire: (session: string) => string,
  read: ReadonlySet<string>,
): Score {
  const labelled = links.filter((l) => label.has(l.commit_sha));
  const right = labelled.filter((l) => label.get(l.commit_sha)?.has(entire(l.session_id)));
  const exact = labelled.filter((l) => label.get(l.commit_sha)?.has(l.session_id));
  const truth = [...label].flatMap(([sha, s]) =>
    [...s].filter((id) => read.has(id)).map((id) => `${id} ${sha}`),
  );
  const linked = new Set(links.map((l) => `${entire(l.session_id)} ${l.commit_sha}`));
  return {
    links: links.length,
    labelled: labelled.length,
    right: right.length,
    exact: exact.length,
    found: truth.filter((k) => linked.has(k)).length,
    truth: truth.length,
    wrong: labelled.filter((l) => !right.includes(l)),
  };
}

function printScore(name: string, s: Score): void {
  console.log(
    `  ${name}: ${s.links} links; ${s.labelled} to commits with a trailer: ${s.right} right by the transcript's session (precision ${round(s.right / Math.max(1, s.labelled), 3)}), ${s.exact} by the session id itself; ${s.links - s.labelled} to commits without one; recall ${s.found} of ${s.truth} (${round(s.found / Math.max(1, s.truth), 3)})`,
  );
}

async function main(root: string, dir: string): Promise<void> {
  const { transcripts, sessionsOf } = checkpoints(root);
  const longest = new Map<string, Transcript>();
  for (const t of transcripts) if ((longest.get(t.session)?.size ?? -1) < t.size) longest.set(t.session, t);
  const chosen = [...longest.values()]
    .filter((t) => onlyHalf === undefined || halfOf(t.session) === onlyHalf)
    .sort((a, b) => (a.session < b.session ? -1 : 1))
    .slice(0, maxSessions);
  const host = await openBenchHost(dir);
  const sessions: string[] = [];
  const owner = new Map<string, string>();
  let bytes = 0;
  // Parse coverage of the Claude Code reader on these real transcripts (issue 20: every record read).
  const coverage = { records: 0, understood: 0, unknown: 0, malformed: 0 };
  const started = process.hrtime.bigint();
  // This process's CPU (git's, which reads the blobs, is apart): on a shared machine, wall time waits.
  const cpuStarted = process.cpuUsage();
  // As a capture run reads its sources (captureRun.ts): no snapshot exported by size meanwhile.
  await host.store.db.bulk(async () => {
    for (const t of chosen) {
      let text = git(root, 'cat-file', 'blob', t.blob);
      const cwd = /"cwd":"([^"]+)"/.exec(text)?.[1];
      if (!text.includes('"sessionId"') || cwd === undefined) continue; // not a Claude Code transcript
      text = text.split(cwd).join(root);
      bytes += text.length;
      const file = path.join(dir, 'sessions', `${t.session}.jsonl`);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      const report = await ingestSource(host.store, { agent: 'claude-code', path: file }, { root });
      for (const k of ['records', 'understood', 'unknown', 'malformed'] as const) coverage[k] += report[k];
      sessions.push(...report.sessions);
      // A transcript also holds its sub-agents' and a resumed session's earlier ids: all are its session's.
      for (const s of report.sessions) if (!owner.has(s)) owner.set(s, t.session);
      rmSync(file);
    }
    // A SIGKILL now would leave these files: copied to time their replay (not in a timed run).
    if (crashCopy) cpSync(path.join(dir, 'db'), path.join(dir, 'crash', 'db'), { recursive: true });
  });
  const ingestMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = process.cpuUsage(cpuStarted);
  const ingestCpuMs = (cpu.user + cpu.system) / 1000;
  if (crashCopy) await timeReplay(path.join(dir, 'crash'));
  const linkStarted = process.hrtime.bigint();
  await linkCommits(host.store, root, [...new Set(sessions)], Date.now());
  const linkMs = Number(process.hrtime.bigint() - linkStarted) / 1e6;
  // Labels: the sessions each commit of the history says it was made with.
  const label = new Map<string, Set<string>>();
  for (const line of git(
    root,
    'log',
    '--all',
    '--format=%H %(trailers:key=Entire-Checkpoint,valueonly=true,separator=%x20)',
  ).split('\n')) {
    const [sha, ...ids] = line.trim().split(/\s+/);
    const sessionsOfCommit = new Set(ids.flatMap((id) => [...(sessionsOf.get(id) ?? [])]));
    // A trailer naming a checkpoint the branch does not have says nothing: no label.
    if (sha && sessionsOfCommit.size > 0) label.set(sha, sessionsOfCommit);
  }
  const links = host.store.read((r) =>
    r.all<{ session_id: string; commit_sha: string }>(
      'SELECT DISTINCT session_id, commit_sha FROM capture_commit_links',
    ),
  );
  const entire = (session: string) => owner.get(session) ?? session;
  const read = new Set(chosen.map((t) => t.session));
  console.log(
    `commit links on entireio/cli (${git(root, 'rev-parse', '--short', 'HEAD').trim()}), ${read.size} Claude Code transcripts, ${new Set(sessions).size} sessions in them (${round(bytes / 2 ** 20)} MB), ${machine()}, load ${os
      .loadavg()
      .map((l) => round(l))
      .join(
        ' ',
      )}; ingest ${round(ingestMs / 1000)} s (CPU ${round(ingestCpuMs / 1000)} s), link ${round(linkMs / 1000)} s`,
  );
  console.log(
    `  parse coverage: ${coverage.records} records read without a crash, ${coverage.understood} understood, ${coverage.unknown} of unknown types, ${coverage.malformed} malformed`,
  );
  for (const half of ['tuning', 'reporting', 'all'] as const) {
    const inHalf = (session: string) => half === 'all' || halfOf(session) === half;
    const score = scoreLinks(
      links.filter((l) => inHalf(entire(l.session_id))),
      label,
      entire,
      new Set([...read].filter(inHalf)),
    );
    const transcripts = [...read].filter(inHalf).length;
    printScore(`${half} (${transcripts} transcripts)`, score);
    if (process.env['ENGRAM_ENTIRE_BENCH_WRONG'] !== undefined && half === 'tuning')
      for (const l of score.wrong)
        console.log(
          `  wrong: ${l.session_id} (${entire(l.session_id)}) -> ${l.commit_sha.slice(0, 8)} labelled ${[...(label.get(l.commit_sha) ?? [])].join(',')}`,
        );
  }
  const memories = await distilSessions(host, [...new Set(sessions)]);
  const recalled = await commitMessageRecall(host, root, links, entire);
  console.log(
    `  memories: ${memories} distilled from ${read.size} transcripts (${round(memories / Math.max(1, read.size), 2)} each)`,
  );
  for (const half of ['tuning', 'reporting', 'all'] as const) {
    const commits = [...recalled.values()].filter(
      (c) => half === 'all' || [...c.sessions].some((s) => halfOf(s) === half),
    );
    const found = commits.filter((c) => c.found).length;
    console.log(
      `  recall by commit subject, ${half}: ${found} of ${commits.length} linked commits have a memory of their session in the top 5 (${round(found / Math.max(1, commits.length), 3)})`,
    );
  }
  if (process.env['ENGRAM_ENTIRE_BENCH_HASH'] !== undefined) printTableHashes(host.store, dir);
  await host.close();
}

if (onlyHalf !== undefined && onlyHalf !== 'tuning' && onlyHalf !== 'reporting') {
  console.log(`entire links: ENGRAM_ENTIRE_BENCH_HALF must be tuning or reporting, not ${onlyHalf}.`);
} else if (source === undefined) {
  console.log('entire links: no repository given (ENGRAM_ENTIRE_BENCH_REPO): nothing measured.');
} else {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-entire-bench-'));
  const root = path.join(dir, 'repo');
  // Every branch as on the developers' machines; no checkout: linking reads the history only.
  git(dir, 'clone', '-q', '--no-checkout', '--shared', source, root);
  git(root, 'fetch', '-q', '--update-head-ok', 'origin', '+refs/heads/*:refs/heads/*');
  main(root, dir)
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => rmSync(dir, { recursive: true, force: true }));
}
