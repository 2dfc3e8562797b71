import { simpleGit } from 'simple-git';
import type { SimpleGit } from 'simple-git';
import type { CommitEvidence } from './claimTypes';

/** What git can say about the workspace: absent without git or without a commit. */
export interface GitContext {
  git: SimpleGit;
  head: string;
  /** A shallow clone: history before its oldest commit is unknown. */
  shallow: boolean;
  cache: HistoryCache;
}

/** The latest deletion or rename of a path, newest history first. */
export interface PathEvent {
  status: 'D' | 'R';
  /** Where a renamed path went (workspace-relative). */
  target?: string;
  commit: CommitEvidence;
}

/** Answers for one HEAD: a new HEAD starts a new cache, so nothing is answered from stale history. */
interface HistoryCache {
  head: string;
  pathEvents?: Promise<Map<string, PathEvent>>;
  timeline?: Promise<Array<{ hash: string; time: number }>>;
  grep: Map<string, Promise<Map<string, Set<string>>>>;
  pickaxe: Map<string, Promise<CommitEvidence | undefined>>;
}

const caches = new Map<string, HistoryCache>();
/** Paths from memories are names, never pathspec magic (`*`, `:(glob)`). */
const LITERAL = '--literal-pathspecs';
const COMMIT_FORMAT = '--format=%x1e%H%x1f%aI%x1f%an%x1f%s';
/** Arguments per git grep call: far below any platform's command-line limit. */
const GREP_BATCH = 400;

export async function openGit(root: string): Promise<GitContext | undefined> {
  let git: SimpleGit;
  try {
    git = simpleGit({ baseDir: root, maxConcurrentProcesses: 4 }).env(gitEnvironment());
    const head = (await git.raw(['rev-parse', '--verify', '-q', 'HEAD'])).trim();
    if (!/^[0-9a-f]{40,64}$/.test(head)) return undefined;
    const shallow = (await git.raw(['rev-parse', '--is-shallow-repository'])).trim() === 'true';
    const key = `${root}\u0000${head}`;
    let cache = caches.get(key);
    if (!cache) {
      cache = { head, grep: new Map(), pickaxe: new Map() };
      // One HEAD per workspace is kept: an older one is never asked again.
      for (const old of caches.keys()) if (old.startsWith(`${root}\u0000`)) caches.delete(old);
      caches.set(key, cache);
    }
    return { git, head, shallow, cache };
  } catch {
    return undefined;
  }
}

/**
 * Only what git needs to find itself and its config: simple-git refuses an environment carrying
 * variables that can redirect git (and nothing here needs them).
 */
function gitEnvironment(): Record<string, string> {
  const env: Record<string, string> = { LC_ALL: 'C.UTF-8' };
  for (const name of ['PATH', 'HOME', 'SystemRoot', 'USERPROFILE', 'XDG_CONFIG_HOME']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Our log format starts each commit with a record separator (U+001E). */
function withoutRecordStart(out: string): string {
  return out.startsWith('\u001e') ? out.slice(1) : out;
}

function parseCommit(header: string): CommitEvidence | undefined {
  const [hash, date, author, message] = header.split('\x1f');
  if (!hash || !date) return undefined;
  return { hash, date, time: Date.parse(date), author: author ?? '', message: message ?? '' };
}

/**
 * Every deletion and rename in the history, in one `git log` (rename detection on, paths relative
 * to the workspace): the latest event per path wins. Cheaper than one `--follow` per path once
 * more than a handful of paths are missing, and asked once per HEAD.
 */
export function pathEvents(ctx: GitContext): Promise<Map<string, PathEvent>> {
  ctx.cache.pathEvents ??= ctx.git
    .raw(['log', '-z', '-M', '--relative', '--name-status', '--diff-filter=DR', COMMIT_FORMAT, 'HEAD'])
    .then(parsePathEvents);
  return ctx.cache.pathEvents;
}

function parsePathEvents(output: string): Map<string, PathEvent> {
  const events = new Map<string, PathEvent>();
  for (const chunk of output.split('\x1e')) {
    const headerEnd = chunk.indexOf('\0');
    if (headerEnd === -1) continue;
    const commit = parseCommit(chunk.slice(0, headerEnd));
    if (!commit) continue;
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
        if (from !== undefined && to !== undefined && !events.has(from))
          events.set(from, { status: 'R', target: to, commit });
        i += 3;
      } else {
        const path = fields[i + 1];
        if (path !== undefined && !events.has(path)) events.set(path, { status: 'D', commit });
        i += 2;
      }
    }
  }
  return events;
}

/** The commit HEAD was at when a memory became valid: the newest first-parent commit not after it. */
export async function commitAt(ctx: GitContext, time: number): Promise<string | undefined> {
  ctx.cache.timeline ??= ctx.git.raw(['log', '--first-parent', '--format=%H %ct', 'HEAD']).then((out) =>
    out
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => {
        const [hash, seconds] = line.split(' ');
        return { hash: hash ?? '', time: Number(seconds) * 1000 };
      }),
  );
  const timeline = await ctx.cache.timeline;
  return timeline.find((c) => c.time <= time)?.hash;
}

/**
 * Which of `needles` occur in the tracked files at `commit` (or in the working tree, untracked
 * files included, when `commit` is undefined), and in which files: batched `git grep -o`.
 */
export async function grepNeedles(
  ctx: GitContext,
  needles: readonly string[],
  options: { commit?: string; wholeWord: boolean },
): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>();
  const unique = [...new Set(needles)].filter((n) => n.length > 0).sort();
  for (let i = 0; i < unique.length; i += GREP_BATCH) {
    const batch = unique.slice(i, i + GREP_BATCH);
    const key = `${options.commit ?? 'worktree'}\u0000${options.wholeWord ? 'w' : 'f'}\u0000${batch.join('\u0000')}`;
    // The working tree changes without HEAD moving: only answers about commits are cached.
    let answer = options.commit ? ctx.cache.grep.get(key) : undefined;
    if (!answer) {
      answer = runGrep(ctx.git, batch, options);
      if (options.commit) ctx.cache.grep.set(key, answer);
    }
    for (const [needle, files] of await answer) found.set(needle, files);
  }
  return found;
}

async function runGrep(
  git: SimpleGit,
  needles: readonly string[],
  options: { commit?: string; wholeWord: boolean },
): Promise<Map<string, Set<string>>> {
  const args = [LITERAL, 'grep', '-z', '-o', '-I', '-F', '--no-color'];
  if (options.wholeWord) args.push('-w');
  if (!options.commit) args.push('--untracked');
  for (const needle of needles) args.push('-e', needle);
  if (options.commit) args.push(options.commit);
  args.push('--', '.');
  let output: string;
  try {
    output = await git.raw(args);
  } catch (error) {
    // git grep exits 1 when nothing matched.
    if (/exited with code 1|^$/.test(String((error as Error).message ?? ''))) return new Map();
    throw error;
  }
  const prefix = options.commit ? `${options.commit}:` : '';
  const found = new Map<string, Set<string>>();
  for (const line of output.split('\n')) {
    const nul = line.indexOf('\0');
    if (nul === -1) continue;
    let file = line.slice(0, nul);
    if (prefix && file.startsWith(prefix)) file = file.slice(prefix.length);
    const match = line.slice(nul + 1);
    let files = found.get(match);
    if (!files) found.set(match, (files = new Set()));
    files.add(file);
  }
  return found;
}

/**
 * The newest commit (after `since`, when given) that changed how often `needle` occurs in `files`:
 * for something gone now, the commit that removed it; for something present that should not be,
 * the commit that added it. Pickaxe limited to the files where it lived keeps it cheap.
 */
export function pickaxe(
  ctx: GitContext,
  needle: string,
  files: readonly string[],
  since?: string,
): Promise<CommitEvidence | undefined> {
  const key = `${needle}\u0000${since ?? ''}\u0000${[...files].sort().join('\u0000')}`;
  let answer = ctx.cache.pickaxe.get(key);
  if (!answer) {
    const range = since && since !== ctx.head ? `${since}..HEAD` : 'HEAD';
    answer = ctx.git
      .raw([
        LITERAL,
        'log',
        '-1',
        `-S${needle}`,
        COMMIT_FORMAT,
        range,
        '--',
        ...(files.length > 0 ? files : ['.']),
      ])
      .then((out) => parseCommit(withoutRecordStart(out).trim()))
      .catch(() => undefined);
    ctx.cache.pickaxe.set(key, answer);
  }
  return answer;
}

/** The commit that added a path (for a negated path that exists again). */
export async function addedBy(ctx: GitContext, path: string): Promise<CommitEvidence | undefined> {
  const out = await ctx.git
    .raw([LITERAL, 'log', '-1', '--diff-filter=A', COMMIT_FORMAT, 'HEAD', '--', path])
    .catch(() => '');
  return parseCommit(withoutRecordStart(out).trim());
}
