import type { CommitEvidence } from './claimTypes';
import { grepNeedles } from './gitGrep';
import { COMMIT_FORMAT, LITERAL, historyAnswer, parseDatedCommit } from './gitHistory';
import type { GitContext } from './gitHistory';

/** Commits checked one by one for the word before settling for the newest change. */
const MAX_STEPS = 8;
const IDENTIFIER_RE = /^[\w$]+$/;

/**
 * The commit that made a word claim false: the commit after the memory's commits from which on
 * `needle` is gone from `files` for good (or, `becomes: 'present'`, there for good). Pickaxe (`-S`)
 * lists the commits that changed how often it occurs, oldest first; the last run of commits in the
 * wanted state is found by checking each with `git grep`, newest first: a word removed, brought
 * back as a deprecated alias and removed again was made false by the second removal, after which
 * the claim never held again. A word that left `files` but stayed in the code elsewhere (a file
 * renamed or converted) was not removed there: its removal is then looked for in the whole tree.
 * Identifiers match as whole words in code, other needles as literal text.
 */
export function firstChange(
  ctx: GitContext,
  needle: string,
  files: readonly string[],
  since: readonly string[],
  becomes: 'absent' | 'present',
): Promise<CommitEvidence | undefined> {
  const sorted = [...new Set(files)].filter((f) => f !== '').sort();
  // `change2`: the answer is the last run's start (was the first flip); older answers are not read.
  const question = `change2\u0000${becomes}\u0000${needle}\u0000${since.join(',')}\u0000${sorted.join('\u0000')}`;
  // A walk to HEAD: stored under HEAD (the greps at the commits it passes are kept by commit). A
  // walk where git failed fails: its claim is unverifiable, never blamed on a guessed commit.
  return historyAnswer(ctx, question, 'head', () => walk(ctx, needle, sorted, since, becomes));
}

async function walk(
  ctx: GitContext,
  needle: string,
  files: readonly string[],
  since: readonly string[],
  becomes: 'absent' | 'present',
): Promise<CommitEvidence | undefined> {
  const range = ['HEAD', ...since.filter((c) => c !== ctx.head).map((c) => `^${c}`)];
  if (since.includes(ctx.head)) return undefined;
  const pathspec = files.length > 0 ? files : ['.'];
  const out = await ctx.git.raw([
    LITERAL,
    'log',
    '--reverse',
    `-S${needle}`,
    COMMIT_FORMAT,
    ...range,
    '--',
    ...pathspec,
  ]);
  const changes = out
    .split('\x1e')
    .map((chunk) => parseDatedCommit(chunk.trim())?.commit)
    .filter((c) => c !== undefined);
  const found = await lastRunStart(ctx, needle, changes, pathspec, becomes);
  if (becomes === 'absent' && found && files.length > 0 && (await occursAt(ctx, needle, found.hash, ['.']))) {
    return (await walk(ctx, needle, [], [found.hash], becomes)) ?? found;
  }
  return found;
}

/**
 * Of the commits that changed the word's count (oldest first), the first of the newest run in the
 * wanted state. At HEAD the word is in that state, so the newest change is in it; going back, the
 * run ends at the first change in the other state. Checked at most MAX_STEPS times.
 */
async function lastRunStart(
  ctx: GitContext,
  needle: string,
  changes: CommitEvidence[],
  pathspec: readonly string[],
  becomes: 'absent' | 'present',
): Promise<CommitEvidence | undefined> {
  if (changes.length <= 1) return changes[0];
  let start = changes[changes.length - 1];
  for (let i = changes.length - 2, steps = 0; i >= 0 && steps < MAX_STEPS; i--, steps++) {
    const change = changes[i] as CommitEvidence;
    const present = await occursAt(ctx, needle, change.hash, pathspec);
    if (present !== (becomes === 'present')) break;
    start = change;
  }
  return start;
}

/** Whether `needle` stands in the code of `files` at `commit` (as the presence checks read code). */
async function occursAt(
  ctx: GitContext,
  needle: string,
  commit: string,
  files: readonly string[],
): Promise<boolean> {
  const paths = files.length === 1 && files[0] === '.' ? [] : files;
  const found = await grepNeedles(ctx, [needle], {
    commit,
    wholeWord: IDENTIFIER_RE.test(needle),
    scope: IDENTIFIER_RE.test(needle) ? 'code' : 'text',
    files: paths,
  });
  return (found.get(needle)?.size ?? 0) > 0;
}
