import type { MemoryStore } from '../../memory/memoryStore';
import { DERIVED_WRITE } from '../../store/durableDatabase';
import type { SqlReader, SqlWriter } from '../../store/sqlAccess';
import { visitFiles } from '../../gitCatFile';
import { branchExists, commitsSince, insideRepository } from './gitCommits';
import type { CommitDiff } from './gitCommits';
import { lineSet, sessionEdits } from './sessionEdits';
import type { FileEdits } from './sessionEdits';

/** Commits a little older than the session's first record still count: clocks and rounding differ. */
const CLOCK_SLACK_MS = 60_000;
/** Sessions relinked on every run besides those that grew: their commits often come after them. */
export const RELINK_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;

export interface CommitLink {
  sessionId: string;
  sha: string;
  path: string;
  /** The session's added lines on `path` that the commit added too. */
  lines: number;
  /** The session's added (significant) lines on `path`. */
  sessionLines: number;
  subject: string;
  committedAt: number;
}

/**
 * Whether a commit carries a session's edit of a file, `common` of the session's `sessionLines`
 * lines there, out of the `commitLines` it added there: half of the session's lines (a one-line
 * fix is one line), or three that make a fifth of what the commit added. A long session shares a
 * few common lines with any later rework of the file: those do not make the rework the session's.
 * Content, not hashes: a rebase, an amend or a squash keeps the lines and changes the commit.
 */
export function carries(common: number, sessionLines: number, commitLines: number): boolean {
  return common > 0 && (common * 2 >= sessionLines || (common >= 3 && common * 5 >= commitLines));
}

/**
 * Whether a commit carries one edit of a file (of a session that edited it more than once): half
 * of the edit's lines that make a fifth of what the commit added (a single edit's line alone is
 * often one any later commit may add again).
 */
export function carriesEdit(common: number, editLines: number, commitLines: number): boolean {
  return common > 0 && common * 2 >= editLines && common * 5 >= commitLines;
}

/** The significant lines a file had before a commit, keyed `sha:path` (linesBefore). */
export type LinesBefore = ReadonlyMap<string, ReadonlySet<string>>;

const NOTHING: ReadonlySet<string> = new Set();

/**
 * The links of one session to the commits given (those after it started, on its branch): a
 * commit carries the session's edit of a file when it carries the session's lines there, or one
 * of its edits' (a session that edits a file ten times is often committed edit by edit). A line
 * goes to the first commit that carries it: a later commit that adds the same line again (code
 * moved back, a revert of a revert) carries someone else's change, not the session's. A line the
 * file already had before the commit (`before`) counts on neither side: a test's set-up copied
 * from the test above it, `if err != nil {`, or the untouched lines of a file the session wrote
 * whole say nothing about whose change the commit is.
 */
export function matchSession(
  sessionId: string,
  edits: ReadonlyMap<string, FileEdits>,
  commits: readonly CommitDiff[],
  before: LinesBefore = new Map(),
): CommitLink[] {
  const links: CommitLink[] = [];
  const claimed = new Map<string, Set<string>>();
  // git log lists the newest first; the oldest commit must claim its lines first.
  const oldestFirst = [...commits].reverse().sort((a, b) => a.committedAt - b.committedAt);
  for (const commit of oldestFirst) {
    for (const [path, file] of edits) {
      const added = commit.added.get(path);
      if (!added) continue;
      const old = before.get(`${commit.sha}:${path}`) ?? NOTHING;
      const isNew = (line: string) => !old.has(line);
      const taken = claimed.get(path) ?? new Set<string>();
      const theirs = [...lineSet(added)].filter(isNew);
      const fresh = (lines: ReadonlySet<string>) =>
        theirs.filter((l) => lines.has(l) && !taken.has(l)).length;
      const newIn = (lines: ReadonlySet<string>) => [...lines].filter(isNew).length;
      const common = theirs.filter((line) => file.all.has(line) && !taken.has(line));
      const carried =
        carries(common.length, newIn(file.all), theirs.length) ||
        file.edits.some((edit) => carriesEdit(fresh(edit), newIn(edit), theirs.length));
      if (!carried) continue;
      for (const line of common) taken.add(line);
      claimed.set(path, taken);
      links.push({
        sessionId,
        sha: commit.sha,
        path,
        lines: common.length,
        sessionLines: file.all.size,
        subject: commit.subject,
        committedAt: commit.committedAt,
      });
    }
  }
  return links;
}

/**
 * What each file the session shares a line with had before the commit that added it (matchSession
 * leaves those lines out), in one `git cat-file --batch` for the session, streamed: of each file
 * only the lines the commit or the session added are kept, so a session over hundreds of large
 * files holds one of them at a time. A file the commit created had nothing. Undefined when git
 * could not read one (it failed, or says a file the diff shows before the commit is missing: a
 * corrupt or absent object): "nothing" would count every shared line as new and may link a
 * commit that only copied them.
 */
export async function linesBefore(
  root: string,
  edits: ReadonlyMap<string, FileEdits>,
  commits: readonly CommitDiff[],
): Promise<LinesBefore | undefined> {
  const before = new Map<string, ReadonlySet<string>>();
  const asked: Array<{
    key: string;
    object: string;
    theirs: ReadonlySet<string>;
    mine: ReadonlySet<string>;
  }> = [];
  for (const commit of commits)
    for (const [path, added] of commit.added) {
      const mine = edits.get(path)?.all;
      const theirs = lineSet(added);
      if (!mine || ![...theirs].some((line) => mine.has(line))) continue;
      const key = `${commit.sha}:${path}`;
      const from = commit.from.has(path) ? (commit.from.get(path) ?? null) : path;
      if (from === null) before.set(key, NOTHING);
      // `./`: relative to the workspace, which may be a folder of the repository.
      else if (!from.includes('\n')) asked.push({ key, object: `${commit.sha}^:./${from}`, theirs, mine });
    }
  let unread = false;
  const keep = (index: number, text: string | undefined) => {
    const { key, theirs, mine } = asked[index] as (typeof asked)[number];
    if (text === undefined) unread = true;
    const kept = new Set<string>();
    for (const line of lineSet((text ?? '').split('\n')))
      if (theirs.has(line) || mine.has(line)) kept.add(line);
    before.set(key, kept);
  };
  const read = await visitFiles(
    root,
    asked.map((a) => a.object),
    keep,
  ).then(
    () => true,
    () => false,
  );
  return read && !unread ? before : undefined;
}

interface SessionToLink {
  id: string;
  startedAt: number;
  endedAt: number | null;
  branch: string | null;
}

const SESSION_COLUMNS = 'id, started_at AS startedAt, ended_at AS endedAt, git_branch AS branch';

function sessionsToLink(r: SqlReader, ids: readonly string[], since: number): SessionToLink[] {
  const rows = r.all<SessionToLink>(
    `SELECT ${SESSION_COLUMNS} FROM capture_sessions s
     WHERE s.started_at IS NOT NULL AND s.started_at >= ?
       AND EXISTS (SELECT 1 FROM capture_file_touches f WHERE f.session_id = s.id AND f.action IN ('edit', 'create'))`,
    [since],
  );
  const extra = ids.length
    ? r.all<SessionToLink>(
        `SELECT ${SESSION_COLUMNS} FROM capture_sessions
         WHERE started_at IS NOT NULL AND id IN (SELECT value FROM json_each(?))`,
        [JSON.stringify(ids)],
      )
    : [];
  const all = new Map<string, SessionToLink>();
  for (const s of [...rows, ...extra]) all.set(s.id, s);
  return [...all.values()];
}

/**
 * The commits that may carry a session's edits: on its branch (when it still exists) or HEAD
 * (where a squash merge lands), committed from its start until a live capture stops relinking it
 * (RELINK_WINDOW_MS after its start, or its last record if later), so a rebuild months later finds
 * the links live linking found, not a rework of the file weeks after. A commit authored before
 * the session started was written before it: a rebase or a cherry-pick during the session gives
 * it a new committer date, not a new author date. Each session is asked alone: a query over many
 * sessions' files and months stops at MAX_COMMITS of the newest and misses the oldest sessions'.
 */
async function candidateCommits(
  root: string,
  session: SessionToLink,
  paths: readonly string[],
  branchKnown: Map<string, boolean>,
): Promise<CommitDiff[] | undefined> {
  const branch = session.branch ?? '';
  if (branch !== '' && !branchKnown.has(branch)) branchKnown.set(branch, await branchExists(root, branch));
  const refs = branchKnown.get(branch) === true ? [branch, 'HEAD'] : ['HEAD'];
  const since = session.startedAt - CLOCK_SLACK_MS;
  const until = Math.max(session.startedAt + RELINK_WINDOW_MS, session.endedAt ?? session.startedAt);
  const commits = await commitsSince(root, refs, since, paths, until);
  return commits?.filter((c) => c.committedAt >= since && c.authoredAt >= since);
}

export interface LinkReport {
  /** Sessions whose set of linked commits changed (their summaries name the commits). */
  changed: string[];
  links: number;
  /**
   * Sessions whose links were left as they were: git could not read their commits or the files
   * before them (a corrupt object, a diff past the output limit, git gone), so this run knows no
   * answer for them; the next run asks again.
   */
  unread: number;
}

/**
 * Links sessions to the commits that carry their edits: those given and every session that
 * started within RELINK_WINDOW_MS of `now` with edits, each against its candidate commits
 * (candidateCommits). A session's links are replaced as a whole, so a commit rewritten away
 * (amend, rebase) loses its link and its new one gains it; a session git could not answer for
 * keeps its links (LinkReport.unread).
 */
export async function linkCommits(
  store: MemoryStore,
  root: string,
  sessionIds: readonly string[],
  now: number,
): Promise<LinkReport> {
  const sessions = store.read((r) => sessionsToLink(r, sessionIds, now - RELINK_WINDOW_MS));
  const report: LinkReport = { changed: [], links: 0, unread: 0 };
  // Outside a repository there is nothing to link, and git's refusal is no failure to report.
  if (sessions.length === 0 || !(await insideRepository(root))) return report;
  const branchKnown = new Map<string, boolean>();
  for (const s of sessions) {
    const edits = store.read((r) => sessionEdits(r, s.id));
    const commits = await candidateCommits(root, s, [...edits.keys()], branchKnown);
    const before = commits && (await linesBefore(root, edits, commits));
    if (commits === undefined || before === undefined) {
      report.unread++;
      report.links += store.read((r) => storedLinks(r, s.id));
      continue;
    }
    const links = matchSession(s.id, edits, commits, before);
    report.links += links.length;
    if (store.read((r) => sameLinks(r, s.id, links))) continue;
    // Derived rows, made again by any run: journaled like the ingest's, synced in the background.
    store.write((tx) => replaceLinks(tx, s.id, links), DERIVED_WRITE);
    report.changed.push(s.id);
    // A session without edits asks git nothing: yield anyway, the host has other work.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return report;
}

function storedLinks(r: SqlReader, sessionId: string): number {
  return r.value<number>('SELECT count(*) FROM capture_commit_links WHERE session_id = ?', [sessionId]) ?? 0;
}

/** Whether the session's stored links are these (commit, file and lines alike). */
function sameLinks(r: SqlReader, sessionId: string, links: readonly CommitLink[]): boolean {
  const key = (rows: ReadonlyArray<{ sha: string; path: string; lines: number }>) =>
    rows
      .map((l) => `${l.sha} ${l.path} ${l.lines}`)
      .sort()
      .join('\n');
  const stored = r.all<{ sha: string; path: string; lines: number }>(
    'SELECT commit_sha AS sha, path, lines FROM capture_commit_links WHERE session_id = ?',
    [sessionId],
  );
  return key(stored) === key(links);
}

/** Replaces a session's links. */
function replaceLinks(tx: SqlWriter, sessionId: string, links: readonly CommitLink[]): void {
  tx.run('DELETE FROM capture_commit_links WHERE session_id = ?', [sessionId]);
  for (const l of links) {
    tx.run(
      `INSERT INTO capture_commit_links (session_id, commit_sha, path, lines, session_lines, subject, committed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [l.sessionId, l.sha, l.path, l.lines, l.sessionLines, l.subject, l.committedAt],
    );
  }
}

/** A session's linked commits, the oldest first, each once with the lines it carries over all files. */
export function linkedCommits(
  r: SqlReader,
  sessionId: string,
): Array<{ sha: string; subject: string; lines: number; committedAt: number }> {
  return r.all(
    `SELECT commit_sha AS sha, subject, sum(lines) AS lines, committed_at AS committedAt
     FROM capture_commit_links WHERE session_id = ? GROUP BY commit_sha ORDER BY committed_at, commit_sha`,
    [sessionId],
  );
}
