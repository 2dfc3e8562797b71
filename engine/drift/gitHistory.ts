import { execFile } from 'node:child_process';
import { simpleGit } from 'simple-git';
import type { SimpleGit } from 'simple-git';
import type { CommitEvidence } from './claimTypes';
import type { AnswerCodec, StoredHistory } from './historyStore';
import { gitEnvironment } from '../gitEnvironment';
import { GitFailure } from './gitFailure';

export { gitEnvironment };

/** What git can say about the workspace: absent without git or without a commit. */
export interface GitContext {
  git: SimpleGit;
  /** The workspace root git runs in (for the one call simple-git cannot make: a batch on stdin). */
  root: string;
  head: string;
  /** A shallow clone: history before its oldest commit is unknown. */
  shallow: boolean;
  cache: HistoryCache;
  /** This check's answers stored in the database (historyStore.ts), read and written by the check. */
  stored: StoredHistory;
}

/** A deletion or rename of a path. */
export interface PathEvent {
  status: 'D' | 'R';
  /** Where a renamed path went (workspace-relative). */
  target?: string;
  commit: CommitEvidence;
  /** Committer time (ms): the order the history was written in, which memory times compare with. */
  committed: number;
}

/** Answers for one HEAD: a new HEAD starts a new cache, so nothing is answered from stale history. */
interface HistoryCache {
  head: string;
  /** Answers by question (see historyAnswer); each may reject, and callers decide what then. */
  answers: Map<string, Promise<unknown>>;
}

const caches = new Map<string, HistoryCache>();
/** Paths from memories are names, never pathspec magic (`*`, `:(glob)`). */
export const LITERAL = '--literal-pathspecs';
export const COMMIT_FORMAT = '--format=%x1e%H%x1f%aI%x1f%an%x1f%s%x1f%ct';

export async function openGit(root: string, stored: StoredHistory): Promise<GitContext | undefined> {
  // Asked without simple-git: outside a repository its failed task could surface once more as an
  // unhandled rejection after the awaiting call had already caught it (seen in CI under load).
  const found = await headOf(root);
  if (!found) return undefined;
  let git: SimpleGit;
  try {
    const { head, shallow } = found;
    git = simpleGit({ baseDir: root, maxConcurrentProcesses: 4 }).env(gitEnvironment());
    const key = `${root}\u0000${head}`;
    let cache = caches.get(key);
    if (!cache) {
      cache = { head, answers: new Map() };
      // One HEAD per workspace is kept: an older one is never asked again.
      for (const old of caches.keys()) if (old.startsWith(`${root}\u0000`)) caches.delete(old);
      caches.set(key, cache);
    }
    return { git, root, head, shallow, cache, stored };
  } catch {
    return undefined;
  }
}

/**
 * HEAD's commit and whether the clone is shallow (one git process: every check asks), or
 * undefined when `root` is not in a git repository (or has no commit yet) or git is not installed.
 * Git that could not run (killed, or no process to be had on a loaded machine) is asked once more,
 * then fails the check: checked as if there were no history, every claim would get another verdict.
 */
async function headOf(root: string): Promise<{ head: string; shallow: boolean } | undefined> {
  try {
    return await askHead(root);
  } catch {
    return askHead(root);
  }
}

function askHead(root: string): Promise<{ head: string; shallow: boolean } | undefined> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['rev-parse', '--is-shallow-repository', '--verify', '-q', 'HEAD'],
      { cwd: root, env: gitEnvironment(), windowsHide: true },
      (error, stdout) => {
        // Git ran and said no (exit code 128 outside a repository, 1 without a commit); or no git.
        if (error && typeof error.code !== 'number' && error.code !== 'ENOENT')
          return reject(new GitFailure(`git rev-parse could not run: ${error.message}`));
        const [shallow, head] = stdout.trim().split('\n');
        resolve(
          error || !head || !/^[0-9a-f]{40,64}$/.test(head)
            ? undefined
            : { head, shallow: shallow === 'true' },
        );
      },
    );
  });
}

/** Our log format starts each commit with a record separator (U+001E). */
export function withoutRecordStart(out: string): string {
  return out.startsWith('\u001e') ? out.slice(1) : out;
}

export function parseCommit(header: string): CommitEvidence | undefined {
  return parseDatedCommit(header)?.commit;
}

/** A commit of COMMIT_FORMAT with its committer time (ms). */
export function parseDatedCommit(header: string): { commit: CommitEvidence; committed: number } | undefined {
  const [hash, date, author, message, committed] = header.split('\x1f');
  if (!hash || !date) return undefined;
  const time = Date.parse(date);
  return {
    commit: { hash, date, time, author: author ?? '', message: message ?? '' },
    committed: committed ? Number(committed) * 1000 : time,
  };
}

const MISSING_OBJECT_RE = /unable to read|missing (?:blob|object)|bad object|could not read/i;

/**
 * Every deletion and rename in the history, in one `git log` (rename detection on, paths relative
 * to the workspace), all events per path, newest first: a path deleted, restored and deleted again
 * has two, and which one made a memory false depends on the memory's time. Cheaper than one
 * `--follow` per path once more than a handful of paths are missing, and asked once per HEAD.
 */
export function pathEvents(ctx: GitContext): Promise<Map<string, PathEvent[]>> {
  return historyAnswer(
    ctx,
    'pathEvents',
    'head',
    () => {
      const log = (renames: string) =>
        ctx.git.raw([
          'log',
          '-z',
          renames,
          '--relative',
          '--name-status',
          '--diff-filter=DR',
          COMMIT_FORMAT,
          'HEAD',
        ]);
      // Rename detection reads the blobs it compares; a clone missing some (a damaged or partial
      // mirror) still has its deletions: renames then read as deletions, never as a failed check.
      return log('-M')
        .catch((error: unknown) => {
          if (!MISSING_OBJECT_RE.test(String(error))) throw error;
          return log('--no-renames');
        })
        .then(parsePathEvents);
    },
    MAP_CODEC as AnswerCodec<Map<string, PathEvent[]>>,
  );
}

/**
 * The answer to `question`: from this process's cache of HEAD, else from the database, else from
 * `load` (git), kept for the database either way. `dependsOn: 'head'` when the question is about
 * HEAD's history (the answer is then stored under HEAD); `'commits'` when the commit hashes in the
 * question alone decide it.
 */
export function historyAnswer<V>(
  ctx: GitContext,
  question: string,
  dependsOn: 'head' | 'commits',
  load: () => Promise<V>,
  codec?: AnswerCodec<V>,
): Promise<V> {
  const head = dependsOn === 'head' ? ctx.head : null;
  let answer = ctx.cache.answers.get(question) as Promise<V> | undefined;
  if (!answer) {
    const stored = ctx.stored.lookup(question, head, codec);
    const loading = stored ? Promise.resolve(stored.value) : countedLoad(load);
    answer = loading;
    ctx.cache.answers.set(question, loading);
    // A failure is no answer: this check sees it (the claim is unverifiable), the next asks again.
    loading.catch(() => {
      if (ctx.cache.answers.get(question) === loading) ctx.cache.answers.delete(question);
    });
  }
  ctx.stored.keep(question, head, answer, codec);
  return answer;
}

/** Git that failed once (killed, or could not start, on a loaded machine) is asked once more. */
function countedLoad<V>(load: () => Promise<V>): Promise<V> {
  historyLoads++;
  return load().catch(() => load());
}

let historyLoads = 0;
/** How many history questions went to git in this process (for tests: a stored answer asks none). */
export function historyLoadCount(): number {
  return historyLoads;
}

/** A Map as its entries (JSON has no Map). */
export const MAP_CODEC: AnswerCodec<Map<unknown, unknown>> = {
  encode: (map) => [...map],
  decode: (json) => new Map(json as Array<[unknown, unknown]>),
};

/** A Set as its values. */
export const SET_CODEC: AnswerCodec<Set<unknown>> = {
  encode: (set) => [...set],
  decode: (json) => new Set(json as unknown[]),
};

function parsePathEvents(output: string): Map<string, PathEvent[]> {
  const events = new Map<string, PathEvent[]>();
  const add = (path: string, event: PathEvent) => {
    const list = events.get(path);
    if (list) list.push(event);
    else events.set(path, [event]);
  };
  for (const chunk of output.split('\x1e')) {
    const headerEnd = chunk.indexOf('\0');
    if (headerEnd === -1) continue;
    const dated = parseDatedCommit(chunk.slice(0, headerEnd));
    if (!dated) continue;
    const { commit, committed } = dated;
    const fields = chunk
      .slice(headerEnd + 1)
      .split('\0')
      .map((f) => f.replace(/^\n/, ''))
      .filter((f) => f !== '');
    for (let i = 0; i < fields.length;) {
      const status = fields[i] ?? '';
      if (status.startsWith('R')) {
        const from = fields[i + 1];
        const to = fields[i + 2];
        if (from !== undefined && to !== undefined) add(from, { status: 'R', target: to, commit, committed });
        i += 3;
      } else {
        const path = fields[i + 1];
        if (path !== undefined) add(path, { status: 'D', commit, committed });
        i += 2;
      }
    }
  }
  for (const list of events.values()) list.sort((a, b) => b.committed - a.committed);
  return events;
}

/**
 * Of a path's events (newest first), the one that made a memory of `time` false: the earliest
 * after that time, or the latest when none came after (the path was already gone).
 */
export function eventAfter(events: readonly PathEvent[], time: number): PathEvent | undefined {
  let chosen: PathEvent | undefined;
  for (const event of events) {
    if (event.committed > time) chosen = event;
    else break;
  }
  return chosen ?? events[0];
}

interface Timeline {
  firstParent: Array<{ hash: string; time: number }>;
  all: Array<{ hash: string; time: number }>;
}

/**
 * The commits HEAD could have been at when a memory became valid: the newest commit of the whole
 * history not after it (the likeliest), and the newest first-parent commit not after it (work on a
 * branch merged later is only on the first). A word was in the code then if either held it.
 */
export async function commitsAt(ctx: GitContext, time: number): Promise<string[]> {
  // One walk of the whole history (with parents) gives both lines: a second walk for the first
  // parents costs as much again (1.4 s on mocha under load).
  const timeline = await historyAnswer(ctx, 'timeline', 'head', () =>
    ctx.git.raw(['log', '--format=%H %ct %P', 'HEAD']).then((out) => parseTimeline(out, ctx.head)),
  );
  const hashes = [timeline.all, timeline.firstParent]
    .map((line) => line.find((c) => c.time <= time)?.hash)
    .filter((h): h is string => h !== undefined);
  return [...new Set(hashes)];
}

/** `hash time parents...` lines: every commit newest first, and the first-parent line from `head`. */
function parseTimeline(out: string, head: string): Timeline {
  const commits = new Map<string, { hash: string; time: number; firstParent: string | undefined }>();
  for (const line of out.split('\n')) {
    if (line.length === 0) continue;
    const [hash = '', seconds, firstParent] = line.split(' ');
    commits.set(hash, { hash, time: Number(seconds) * 1000, firstParent });
  }
  const firstParent: Timeline['firstParent'] = [];
  for (let at = commits.get(head); at; at = at.firstParent ? commits.get(at.firstParent) : undefined)
    firstParent.push({ hash: at.hash, time: at.time });
  const all = [...commits.values()].map(({ hash, time }) => ({ hash, time })).sort((a, b) => b.time - a.time);
  return { firstParent, all };
}

/** The commit that added a path (for a negated path that exists again): the first after `time`. */
export async function addedBy(
  ctx: GitContext,
  path: string,
  time: number,
): Promise<CommitEvidence | undefined> {
  const out = await ctx.git.raw([LITERAL, 'log', '--diff-filter=A', COMMIT_FORMAT, 'HEAD', '--', path]);
  const adds = out
    .split('\x1e')
    .map((chunk) => parseDatedCommit(chunk.trim()))
    .filter((c) => c !== undefined);
  const after = adds.filter((c) => c.committed > time);
  return (after[after.length - 1] ?? adds[0])?.commit;
}
