// Commit-link accuracy on real history: public repositories that committed Aider's own transcript
// (`.aider.chat.history.md`) beside the commits Aider made. Aider writes each of its commits into
// the transcript ("> Commit 1a2b3c4 feat: ..."), so the transcript itself says which commits
// carry which session's edits: the ground truth, written by the tool, not by us. The repositories
// are not in this one: pass clones (or bare mirrors) of them in ENGRAM_LINK_BENCH_REPOS
// (comma-separated paths; `path#aider/chat_history.md` when the repository keeps the transcript
// elsewhere than `.aider.chat.history.md`); without it the bench says so and measures nothing.
// Aider writes its session times in the machine's local time without a zone, so the bench reads
// each transcript in the zone of its commits (TZ from the first commit's offset), as Engram
// running on the author's machine would.
// Usage: ENGRAM_LINK_BENCH_REPOS=/path/a,/path/b node --import tsx test/bench/commitLinkBench.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repos = (process.env['ENGRAM_LINK_BENCH_REPOS'] ?? '').split(',').filter((p) => p.trim() !== '');
const TRANSCRIPT = '.aider.chat.history.md';

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} in ${cwd}: ${run.stderr}`);
  return run.stdout;
}

/** `Etc/GMT-2` for +0200 (POSIX zone names count the other way). */
function zoneOf(offset: string): string {
  const m = /^([+-])(\d\d)(\d\d)$/.exec(offset);
  if (!m || m[3] !== '00') return 'UTC';
  const hours = Number(m[2]);
  return hours === 0 ? 'UTC' : `Etc/GMT${m[1] === '+' ? '-' : '+'}${hours}`;
}

if (repos.length === 0) {
  console.log(
    'commit links: no repository given (ENGRAM_LINK_BENCH_REPOS): nothing measured. See the comment at the top of test/bench/commitLinkBench.ts.',
  );
} else if (process.env['ENGRAM_LINK_BENCH_CHILD'] === undefined) {
  // One child per repository, in the zone of its commits (TZ is read once, at start).
  const total = { links: 0, correct: 0, truth: 0 };
  for (const repo of repos) {
    const [gitDir, transcript = TRANSCRIPT] = repo.split('#') as [string, string?];
    const offset = git(gitDir, 'log', '-1', '--format=%ad', '--date=format:%z', '--', transcript).trim();
    const run = spawnSync(process.execPath, ['--import', 'tsx', __filename], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        TZ: zoneOf(offset),
        ENGRAM_LINK_BENCH_REPOS: repo,
        ENGRAM_LINK_BENCH_CHILD: '1',
      },
    });
    process.stdout.write(run.stdout);
    if (run.status !== 0) process.exitCode = 1;
    const result = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as {
      links?: number;
      correct?: number;
      commitsInHistory?: number;
    };
    total.links += result.links ?? 0;
    total.correct += result.correct ?? 0;
    total.truth += result.commitsInHistory ?? 0;
  }
  const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 1000) / 1000);
  console.log(
    `commit links over ${repos.length} repositories: ${total.correct} of ${total.links} links right ` +
      `(precision ${ratio(total.correct, total.links)}), ${total.correct} of ${total.truth} announced commits linked ` +
      `(recall ${ratio(total.correct, total.truth)})`,
  );
} else {
  void measure(repos[0] as string);
}

async function measure(repo: string): Promise<void> {
  const [source, transcript = TRANSCRIPT] = repo.split('#') as [string, string?];
  const { openBenchHost } = await import('./benchHost');
  const { ingestSource } = await import('../../engine/capture/ingest');
  const { linkCommits } = await import('../../engine/capture/link/commitLinks');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-link-bench-'));
  try {
    const root = path.join(dir, 'repo');
    // No checkout: linking reads the history only (a mirror may lack its largest blobs).
    git(dir, 'clone', '-q', '--no-checkout', source, root);
    // The transcript as last committed (a later commit may have removed it), where Aider keeps
    // it: in the workspace, whose paths its edits name.
    const last = git(root, 'log', '-1', '--format=%H', '--', transcript).trim();
    if (last === '') {
      console.log(JSON.stringify({ repository: repo, note: `no ${transcript} in its history` }));
      return;
    }
    const history = path.join(root, TRANSCRIPT);
    writeFileSync(history, git(root, 'show', `${last}:${transcript}`));
    const host = await openBenchHost(dir);
    const store = host.store;
    const report = await ingestSource(store, { agent: 'aider', path: history }, { root });
    const started = process.hrtime.bigint();
    await linkCommits(store, root, report.sessions, Date.now());
    const linkMs = Number(process.hrtime.bigint() - started) / 1e6;
    // Ground truth: the commits Aider announced in each session, still in the history (an /undo
    // or a rebase removes some), with a line added that Engram could match.
    const truth = new Set<string>();
    let announced = 0;
    for (const s of report.sessions) {
      const texts = store.read((r) =>
        // Aider's own output lines, wherever the reader put them (a reply not followed by a blank
        // line takes them into its block).
        r.all<{ text: string }>("SELECT text FROM capture_turns WHERE session_id = ? AND role != 'user'", [
          s,
        ]),
      );
      for (const { text } of texts) {
        for (const m of text.matchAll(/^(?:> ?)?Commit ([0-9a-f]{7,40}) /gm)) {
          announced++;
          const full = spawnSync('git', ['rev-parse', '--verify', '-q', `${m[1]}^{commit}`], {
            cwd: root,
            encoding: 'utf8',
          });
          const sha = full.stdout.trim();
          if (full.status !== 0 || sha === '') continue;
          if (spawnSync('git', ['merge-base', '--is-ancestor', sha, 'HEAD'], { cwd: root }).status !== 0)
            continue;
          truth.add(`${s} ${sha}`);
        }
      }
    }
    const links = new Set(
      store
        .read((r) =>
          r.all<{ session_id: string; commit_sha: string }>(
            'SELECT DISTINCT session_id, commit_sha FROM capture_commit_links',
          ),
        )
        .map((l) => `${l.session_id} ${l.commit_sha}`),
    );
    const right = [...links].filter((l) => truth.has(l)).length;
    const edits = store.read(
      (r) => r.value<number>("SELECT count(*) FROM capture_file_touches WHERE action != 'read'") ?? 0,
    );
    console.log(
      JSON.stringify({
        repository: repo,
        tz: process.env['TZ'],
        sessions: report.sessions.length,
        // Parse coverage of the Aider reader on this real transcript: records read, understood...
        records: report.records,
        understood: report.understood,
        unknown: report.unknown,
        malformed: report.malformed,
        edits,
        commitsAnnounced: announced,
        commitsInHistory: truth.size,
        links: links.size,
        correct: right,
        precision: links.size === 0 ? null : Math.round((right / links.size) * 1000) / 1000,
        recall: truth.size === 0 ? null : Math.round((right / truth.size) * 1000) / 1000,
        linkMs: Math.round(linkMs),
        wrong: [...links].filter((l) => !truth.has(l)).map((l) => l.split(' ')[1]?.slice(0, 7)),
        missed: [...truth].filter((t) => !links.has(t)).map((t) => t.split(' ')[1]?.slice(0, 7)),
      }),
    );
    await host.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
