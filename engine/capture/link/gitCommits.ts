import { execFile } from 'node:child_process';
import { gitEnvironment } from '../../gitEnvironment';

/** A commit with the lines it added, per workspace-relative file. */
export interface CommitDiff {
  sha: string;
  subject: string;
  /** Committer time (ms): a rebase, an amend or a squash writes a new one. */
  committedAt: number;
  /** Author time (ms): kept by a rebase or a cherry-pick, so older than the commit's rewrite. */
  authoredAt: number;
  added: Map<string, string[]>;
  /**
   * Per file of `added`, its path before the commit (another after a rename), or null when the
   * commit created it: a file that had a path there must be readable at the parent.
   */
  from: Map<string, string | null>;
}

/** Commits read at most per question: a session's history is days, not years. */
const MAX_COMMITS = 500;
const MAX_OUTPUT = 64 * 1024 * 1024;

function git(root: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'core.quotepath=off', ...args],
      { cwd: root, env: gitEnvironment(), windowsHide: true, maxBuffer: MAX_OUTPUT },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
  });
}

/** Whether `branch` names a local branch of the repository at `root`. */
export async function branchExists(root: string, branch: string): Promise<boolean> {
  return (await git(root, ['rev-parse', '--verify', '-q', `refs/heads/${branch}`])) !== undefined;
}

/** Whether `root` is in a git repository (a work tree or a bare one): git answers nothing elsewhere. */
export async function insideRepository(root: string): Promise<boolean> {
  return (await git(root, ['rev-parse', '--git-dir'])) !== undefined;
}

/**
 * The commits reachable from `refs` committed from `since` to `until` (ms) that changed one of
 * `paths`, with their added lines (no context lines, paths relative to `root`). Undefined when git
 * failed (outside a repository, a corrupt object, more output than MAX_OUTPUT): not "no commits".
 */
export async function commitsSince(
  root: string,
  refs: readonly string[],
  since: number,
  paths: readonly string[],
  until = Infinity,
): Promise<CommitDiff[] | undefined> {
  if (paths.length === 0) return [];
  const out = await git(root, [
    '--literal-pathspecs',
    'log',
    ...refs,
    `--since=@${Math.floor(since / 1000)}`,
    ...(until === Infinity ? [] : [`--until=@${Math.ceil(until / 1000)}`]),
    `--max-count=${MAX_COMMITS}`,
    '--format=%x1e%H%x1f%ct%x1f%at%x1f%s',
    '-p',
    '--unified=0',
    '--no-color',
    '--no-ext-diff',
    '--relative',
    '--',
    ...paths,
  ]);
  return out === undefined ? undefined : parseLog(out);
}

/** `git log -p` output in our format, commit by commit. */
export function parseLog(out: string): CommitDiff[] {
  const commits: CommitDiff[] = [];
  for (const chunk of out.split('\u001e')) {
    const lines = chunk.split('\n');
    const [sha, time, authored, subject] = (lines[0] ?? '').split('\u001f');
    if (!sha || !/^[0-9a-f]{40,64}$/.test(sha)) continue;
    const commit: CommitDiff = {
      sha,
      subject: subject ?? '',
      committedAt: Number(time) * 1000,
      authoredAt: Number(authored) * 1000,
      added: new Map(),
      from: new Map(),
    };
    let file: string[] | undefined;
    let from: string | null = null;
    let inHunk = false;
    for (const line of lines.slice(1)) {
      if (line.startsWith('diff --git ')) {
        inHunk = false;
        file = undefined;
      } else if (!inHunk && line.startsWith('--- ')) {
        const name = unquote(line.slice(4));
        from = name === '/dev/null' ? null : name.replace(/^a\//, '');
      } else if (!inHunk && line.startsWith('+++ ')) {
        const name = unquote(line.slice(4));
        if (name === '/dev/null') continue;
        const relative = name.replace(/^b\//, '');
        file = commit.added.get(relative) ?? [];
        commit.added.set(relative, file);
        commit.from.set(relative, from);
      } else if (line.startsWith('@@')) {
        inHunk = true;
      } else if (inHunk && line.startsWith('+')) {
        file?.push(line.slice(1));
      }
    }
    commits.push(commit);
  }
  return commits;
}

/** Git quotes a path with unusual characters ("b/a\"b"): enough of C unquoting for names. */
function unquote(name: string): string {
  if (!name.startsWith('"') || !name.endsWith('"')) return name;
  return name
    .slice(1, -1)
    .replace(/\\(["\\])/g, '$1')
    .replace(/\\t/g, '\t')
    .replace(/\\n/g, '\n');
}

export interface Blamed {
  /** Undefined when the line is not committed yet. */
  sha: string | undefined;
  subject: string | undefined;
  committedAt: number | undefined;
}

/** The commit that last changed `line` (1-based) of `file`, or undefined without one (no repo, no line). */
export async function blameLine(root: string, file: string, line: number): Promise<Blamed | undefined> {
  const out = await git(root, [
    '--literal-pathspecs',
    'blame',
    '--porcelain',
    '-L',
    `${line},${line}`,
    '--',
    file,
  ]);
  if (out === undefined) return undefined;
  const sha = /^([0-9a-f]{40,64}) /.exec(out)?.[1];
  if (sha === undefined) return undefined;
  if (/^0+$/.test(sha)) return { sha: undefined, subject: undefined, committedAt: undefined };
  const subject = /^summary (.*)$/m.exec(out)?.[1];
  const time = /^committer-time (\d+)$/m.exec(out)?.[1];
  return { sha, subject, committedAt: time === undefined ? undefined : Number(time) * 1000 };
}

/** The branch checked out at `root`, or undefined (no repository, detached HEAD). */
export async function currentBranch(root: string): Promise<string | undefined> {
  const out = (await git(root, ['rev-parse', '--abbrev-ref', 'HEAD']))?.trim();
  return out === undefined || out === '' || out === 'HEAD' ? undefined : out;
}
