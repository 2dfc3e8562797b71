import type { CommitEvidence } from './claimTypes';
import { grepNeedles } from './gitGrep';
import { COMMIT_FORMAT, LITERAL, historyAnswer, parseDatedCommit } from './gitHistory';
import type { GitContext } from './gitHistory';

/** Commits checked one by one for the word before settling for the newest change. */
const MAX_STEPS = 8;
const IDENTIFIER_RE = /^[\w$]+$/;

/**
 * The commit that made a word claim false: the earliest commit after the memory's commits after
 * which `needle` is gone from `files` (or, `becomes: 'present'`, after which it is there). Pickaxe
 * (`-S`) lists the commits that changed how often it occurs, oldest first; a change that only
 * lowered the count is not the one, so each is checked with `git grep` at that commit until the
 * word's state flips. Identifiers match as whole words, other needles as literal text.
 */
export function firstChange(
  ctx: GitContext,
  needle: string,
  files: readonly string[],
  since: readonly string[],
  becomes: 'absent' | 'present',
): Promise<CommitEvidence | undefined> {
  const sorted = [...new Set(files)].filter((f) => f !== '').sort();
  const question = `change\u0000${becomes}\u0000${needle}\u0000${since.join(',')}\u0000${sorted.join('\u0000')}`;
  // A walk to HEAD: stored under HEAD (the greps at the commits it passes are kept by commit).
  // A walk that could not grep a commit guessed there: its answer is used but not kept.
  const unsure = () => {
    ctx.stored.doNotStore(question, ctx.head);
    ctx.cache.answers.delete(question);
  };
  return historyAnswer(ctx, question, 'head', () => walk(ctx, needle, sorted, since, becomes, unsure)).catch(
    () => undefined,
  );
}

async function walk(
  ctx: GitContext,
  needle: string,
  files: readonly string[],
  since: readonly string[],
  becomes: 'absent' | 'present',
  unsure: () => void,
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
  if (changes.length <= 1) return changes[0];
  for (const change of changes.slice(0, MAX_STEPS)) {
    const present = await occursAt(ctx, needle, change.hash, pathspec, unsure);
    if (present === (becomes === 'present')) return change;
  }
  return changes[changes.length - 1];
}

/** Whether `needle` stands in the code of `files` at `commit` (as the presence checks read code). */
async function occursAt(
  ctx: GitContext,
  needle: string,
  commit: string,
  files: readonly string[],
  unsure: () => void,
): Promise<boolean> {
  const paths = files.length === 1 && files[0] === '.' ? [] : files;
  const found = await grepNeedles(ctx, [needle], {
    commit,
    wholeWord: IDENTIFIER_RE.test(needle),
    scope: IDENTIFIER_RE.test(needle) ? 'code' : 'text',
    files: paths,
  }).catch(() => {
    unsure();
    return new Map<string, Set<string>>();
  });
  return (found.get(needle)?.size ?? 0) > 0;
}
