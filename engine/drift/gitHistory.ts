import { execFile } from 'node:child_process';
import { simpleGit } from 'simple-git';
import type { SimpleGit } from 'simple-git';
import type { CommitEvidence } from './claimTypes';
import { codeOfLine, evidencePathspecs } from './evidenceFiles';
import type { EvidenceScope } from './evidenceFiles';
import { excludePathspecs } from './oversizedFiles';
import type { AnswerCodec, StoredHistory } from './historyStore';

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
/** Arguments per git grep call: far below any platform's command-line limit. */
const GREP_BATCH = 400;

export async function openGit(root: string, stored: StoredHistory): Promise<GitContext | undefined> {
  let git: SimpleGit;
  try {
    // Asked without simple-git: outside a repository its failed task could surface once more as an
    // unhandled rejection after the awaiting call had already caught it (seen in CI under load).
    const found = await headOf(root);
    if (!found) return undefined;
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
 * undefined when `root` is not in a git repository (or has no commit yet).
 */
function headOf(root: string): Promise<{ head: string; shallow: boolean } | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['rev-parse', '--is-shallow-repository', '--verify', '-q', 'HEAD'],
      { cwd: root, env: gitEnvironment(), windowsHide: true },
      (error, stdout) => {
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

/**
 * Only what git needs to find itself and its config: simple-git refuses an environment carrying
 * variables that can redirect git (and nothing here needs them).
 */
export function gitEnvironment(): Record<string, string> {
  const env: Record<string, string> = { LC_ALL: 'C.UTF-8' };
  for (const name of ['PATH', 'HOME', 'SystemRoot', 'USERPROFILE', 'XDG_CONFIG_HOME']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
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
    () =>
      ctx.git
        .raw(['log', '-z', '-M', '--relative', '--name-status', '--diff-filter=DR', COMMIT_FORMAT, 'HEAD'])
        .then(parsePathEvents),
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
    answer = stored ? Promise.resolve(stored.value) : countedLoad(load);
    ctx.cache.answers.set(question, answer);
  }
  ctx.stored.keep(question, head, answer, codec);
  return answer;
}

function countedLoad<V>(load: () => Promise<V>): Promise<V> {
  historyLoads++;
  return load();
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

export interface GrepOptions {
  commit?: string;
  wholeWord: boolean;
  /** Working-tree files not to read (too large for the scanner: oversizedFiles.ts). */
  skip?: readonly string[];
  /** What may be read (evidenceFiles.ts): `text` (default) or `code`. */
  scope?: EvidenceScope;
  /** Only these files (each taken literally); the whole tree when absent. */
  files?: readonly string[];
}

/**
 * Which of `needles` occur in the tracked files at `commit` (or in the working tree, untracked
 * files included, when `commit` is undefined), and in which files: batched `git grep`. Lockfiles
 * and generated files are never searched; with `scope: 'code'` neither are docs, tests, examples
 * and changelogs, and a match must stand in code, not in a comment or a string (evidenceFiles.ts).
 */
export async function grepNeedles(
  ctx: GitContext,
  needles: readonly string[],
  options: GrepOptions,
): Promise<Map<string, Set<string>>> {
  const unique = [...new Set(needles)].filter((n) => n.length > 0).sort();
  const scope = options.scope ?? 'text';
  const { commit } = options;
  // The working tree changes without HEAD moving: only answers about commits are kept.
  if (!commit) return grepBatches(ctx.git, unique, { ...options, scope });
  const found = new Map<string, Set<string>>();
  // One question per needle, so a re-check greps only the needles it has not asked before. At a
  // commit a needle's files do not depend on the other needles of its batch: code is searched by
  // whole lines (runGrep), and a text search at a commit asks one needle at a time (historyWalk).
  const question = (needle: string) =>
    `grep\u0000${commit}\u0000${options.wholeWord ? 'w' : 'f'}\u0000${scope}\u0000${(options.files ?? []).join('\u0001')}\u0000${needle}`;
  const missing = unique.filter(
    (n) => !ctx.cache.answers.has(question(n)) && !ctx.stored.has(question(n), null),
  );
  const batch = missing.length > 0 ? grepBatches(ctx.git, missing, { ...options, scope }) : undefined;
  // Each needle's answer awaits the batch and sees its failure; this only keeps it from going unhandled.
  if (batch) void batch.catch(() => undefined);
  const answers = unique.map((needle) =>
    historyAnswer(
      ctx,
      question(needle),
      'commits',
      async () => (await (batch as Promise<Map<string, Set<string>>>)).get(needle) ?? new Set<string>(),
      SET_CODEC as AnswerCodec<Set<string>>,
    ),
  );
  const files = await Promise.all(answers);
  unique.forEach((needle, i) => {
    const at = files[i] as Set<string>;
    if (at.size > 0) found.set(needle, at);
  });
  return found;
}

/** `runGrep` over `needles` in batches of GREP_BATCH. */
async function grepBatches(
  git: SimpleGit,
  needles: readonly string[],
  options: GrepOptions & { scope: EvidenceScope },
): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>();
  for (let i = 0; i < needles.length; i += GREP_BATCH)
    for (const [needle, files] of await runGrep(git, needles.slice(i, i + GREP_BATCH), options))
      found.set(needle, files);
  return found;
}

async function runGrep(
  git: SimpleGit,
  needles: readonly string[],
  options: GrepOptions & { scope: EvidenceScope },
): Promise<Map<string, Set<string>>> {
  const skip = options.commit ? [] : (options.skip ?? []);
  // Whole lines for code, so comments and strings can be told from code; only the match otherwise.
  const lines = options.scope === 'code';
  const grep = async (perl: boolean): Promise<string> => {
    const args = ['grep', '-z', '-I', '--no-color'];
    if (perl) args.push('-P', '-e', needlesPattern(needles, options.wholeWord));
    else {
      args.push('-F');
      if (!lines) args.push('-o');
      if (options.wholeWord) args.push('-w');
      for (const needle of needles) args.push('-e', needle);
    }
    if (!options.commit) args.push('--untracked');
    if (options.commit) args.push(options.commit);
    args.push('--', ...evidencePathspecs(options.scope, options.files), ...excludePathspecs(skip));
    try {
      return await git.raw(args);
    } catch (error) {
      // git grep exits 1 when nothing matched.
      if (/exited with code 1|^$/.test(String((error as Error).message ?? ''))) return '';
      throw error;
    }
  };
  let output: string;
  // Only whole lines are asked through one pattern: which needles a line holds is decided below
  // either way, while `-o` would print one alternative where `-F` prints the longest needle.
  if (lines && perlGrep)
    try {
      output = await grep(true);
    } catch (error) {
      // A git built without PCRE (or a PCRE error on a file): the same question as fixed strings,
      // slower but with the same answer; without PCRE it is never asked through it again.
      if (/Perl-compatible|LIBPCRE/i.test(String((error as Error).message ?? ''))) perlGrep = false;
      output = await grep(false);
    }
  else output = await grep(false);
  const prefix = options.commit ? `${options.commit}:` : '';
  const found = new Map<string, Set<string>>();
  const add = (match: string, file: string) => {
    let files = found.get(match);
    if (!files) found.set(match, (files = new Set()));
    files.add(file);
  };
  const wanted = lines ? new Set(needles) : undefined;
  for (const line of output.split('\n')) {
    const nul = line.indexOf('\0');
    if (nul === -1) continue;
    let file = line.slice(0, nul);
    if (prefix && file.startsWith(prefix)) file = file.slice(prefix.length);
    const content = line.slice(nul + 1);
    if (!wanted) add(content, file);
    else if (content.length <= MAX_LINE)
      for (const needle of needlesInCode(codeOfLine(file, content), wanted)) add(needle, file);
  }
  return found;
}

/**
 * Whether to grep through one Perl regular expression (false once git says it has no PCRE). Many `-e` patterns are
 * tried one after another on every line (O(lines x needles): 2 s for 215 needles on mocha's code,
 * 5 s on got's); one alternation is matched in a single pass (40 ms for the same lines).
 */
let perlGrep = true;

/**
 * One Perl pattern matching any of `needles` as `-F` would, and as `-w` would when `wholeWord`:
 * no word character (git's: ASCII letters, digits, `_`) right before or after the match.
 */
export function needlesPattern(needles: readonly string[], wholeWord: boolean): string {
  // A backslash before an ASCII character that is not a letter or digit always makes it literal.
  const alternatives = needles.map((n) => n.replace(/[^A-Za-z0-9_\u0080-\uffff]/g, '\\$&')).join('|');
  return wholeWord ? `(?<![A-Za-z0-9_])(?:${alternatives})(?![A-Za-z0-9_])` : `(?:${alternatives})`;
}

/** Longer lines are minified or generated code: never evidence. */
const MAX_LINE = 2_000;
const WORD_RE = /[A-Za-z_$][\w$]*/g;

/** The needles that stand in a line of code: identifiers as whole words, anything else as text. */
function needlesInCode(code: string, wanted: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(WORD_RE)) if (wanted.has(m[0])) out.push(m[0]);
  for (const needle of wanted) if (!IDENTIFIER_RE.test(needle) && code.includes(needle)) out.push(needle);
  return out;
}

const IDENTIFIER_RE = /^[A-Za-z_$][\w$]*$/;

/** The commit that added a path (for a negated path that exists again): the first after `time`. */
export async function addedBy(
  ctx: GitContext,
  path: string,
  time: number,
): Promise<CommitEvidence | undefined> {
  const out = await ctx.git
    .raw([LITERAL, 'log', '--diff-filter=A', COMMIT_FORMAT, 'HEAD', '--', path])
    .catch(() => '');
  const adds = out
    .split('\x1e')
    .map((chunk) => parseDatedCommit(chunk.trim()))
    .filter((c) => c !== undefined);
  const after = adds.filter((c) => c.committed > time);
  return (after[after.length - 1] ?? adds[0])?.commit;
}
