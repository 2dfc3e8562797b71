import type { CommitEvidence } from './claimTypes';
import { COMMIT_FORMAT, LITERAL, SET_CODEC, historyAnswer, parseDatedCommit } from './gitHistory';
import { catFiles } from '../gitCatFile';
import { BatchLoader } from './batchLoader';
import { GitFailure } from './gitFailure';
import type { AnswerCodec } from './historyStore';
import type { GitContext } from './gitHistory';

/**
 * How a claim reads one version of a file: `undefined` text is a deleted file; the answer
 * `unreadable` (a merge that committed conflict markers) says nothing either way and is skipped.
 */
export interface FileReader<T> {
  /** Names the reading for the cache (one parse per version of the file and reader). */
  name: string;
  read(text: string | undefined, file: string): T | 'unreadable';
  /** How a value is stored in the database when it is not plain JSON (a Set, a Map). */
  codec?: AnswerCodec<T>;
}

interface Version<T> {
  commit: CommitEvidence;
  committed: number;
  value: T;
}

/**
 * The commit that made a claim about files false for good: the earliest version, on the way from
 * the commit the memory described (`asOf`) to HEAD, for which `isFalse` says so and stays so (a dependency dropped
 * or on another major, a script gone, a config value changed). A version bump does not change how
 * often a name occurs, so pickaxe cannot see it; reading each version of the file can. With
 * several files, a claim about presence is false once it holds in none of them (`every`), a denial
 * once one breaks it (`any`). A file where the claim did not hold at `asOf` cannot be the one that
 * made it false.
 */
export async function firstBreak<T>(
  ctx: GitContext,
  files: readonly string[],
  asOf: string | undefined,
  reader: FileReader<T>,
  isFalse: (value: T) => boolean,
  mode: 'every' | 'any',
): Promise<CommitEvidence | undefined> {
  if (!asOf || asOf === ctx.head) return undefined;
  const breaks: CommitEvidence[] = [];
  for (const file of files) {
    let then = await versionAt(ctx, asOf, file, reader);
    let paths = [file];
    if ((then === 'unreadable' || isFalse(then)) && !(await existsAt(ctx, asOf, file))) {
      // Not there then: it may have had another name. A claim about `lib/client.js` that
      // `lib/dispatcher/client.js` (renamed since) broke is followed across the rename.
      const former = await nameAt(ctx, asOf, file);
      if (former === undefined) continue;
      then = await versionAt(ctx, asOf, former, reader);
      paths = [former, file];
    }
    // Not there, or not holding, when the memory was written: this file cannot have broken it.
    if (then === 'unreadable' || isFalse(then)) continue;
    // Gone since under this name: renamed (`src/react/Hydrate.tsx` to `packages/react-query/...`)
    // is no break; the versions under its later names decide.
    paths = [...paths, ...(await laterNames(ctx, paths[paths.length - 1] as string))];
    const [versions, after] = await Promise.all([
      versionsAcross(ctx, paths, reader),
      Promise.all(paths.map((path) => descendants(ctx, asOf, path))),
    ]);
    const broken = await brokenForGood(
      versions.filter((v) => after.some((a) => a.has(v.commit.hash))),
      isFalse,
      async (from, to) =>
        (await Promise.all(paths.map((path) => descendants(ctx, from, path)))).some((d) => d.has(to)),
    );
    if (broken) breaks.push(broken.commit);
    else if (mode === 'every') return undefined;
  }
  if (breaks.length === 0) return undefined;
  breaks.sort((a, b) => a.time - b.time);
  return mode === 'any' ? breaks[0] : breaks[breaks.length - 1];
}

/**
 * The version that began the last run of false versions, if the newest is false: a deprecated
 * alias restored a release after its removal (and removed again) broke the claim at the second
 * removal, not the first. A version that holds on another line of history (an older branch
 * still maintained, merged later) does not undo a break it does not descend from.
 */
async function brokenForGood<T>(
  versions: ReadonlyArray<Version<T>>,
  isFalse: (value: T) => boolean,
  descends: (from: string, to: string) => Promise<boolean>,
): Promise<Version<T> | undefined> {
  let broken: Version<T> | undefined;
  for (const version of versions) {
    if (isFalse(version.value)) broken ??= version;
    else if (broken && (await descends(broken.commit.hash, version.commit.hash))) broken = undefined;
  }
  return broken;
}

/** Whether `file` was in the tree of `commit`: kept with the other answers about commits. */
function existsAt(ctx: GitContext, commit: string, file: string): Promise<boolean> {
  return historyAnswer(ctx, `exists\u0000${commit}\u0000${file}`, 'commits', async () => {
    return (await objectsOf(ctx).get(`${commit}:${file}`)) !== undefined;
  });
}

/**
 * The name `file` had at `commit`, if it was another one (a rename since, as `git log --follow`
 * sees it), and the file was there under it.
 */
async function nameAt(ctx: GitContext, commit: string, file: string): Promise<string | undefined> {
  const names = await historyAnswer(ctx, `former names\u0000${file}`, 'head', async () => {
    const out = await ctx.git.raw([
      LITERAL,
      'log',
      '--follow',
      '--name-only',
      '--format=',
      'HEAD',
      '--',
      file,
    ]);
    return [...new Set(out.split('\n').filter((line) => line.length > 0 && line !== file))];
  });
  for (const name of names) {
    if (await existsAt(ctx, commit, name)) return name;
  }
  return undefined;
}

/**
 * The names a file took after it left HEAD's tree under `file`, in order: each commit that last
 * touched a name renamed it (as `git diff-tree -M` sees it) or deleted it (the chain ends).
 */
async function laterNames(ctx: GitContext, file: string): Promise<string[]> {
  if (await existsAt(ctx, ctx.head, file)) return [];
  return historyAnswer(ctx, `later names\u0000${file}`, 'head', async () => {
    const names: string[] = [];
    let name = file;
    while (names.length < MAX_RENAMES) {
      const last = (await ctx.git.raw([LITERAL, 'log', '-1', '--format=%H', 'HEAD', '--', name])).trim();
      if (last === '') break;
      const out = await ctx.git.raw([
        LITERAL,
        'diff-tree',
        '-r',
        '-M',
        '--name-status',
        '-z',
        `${last}^`,
        last,
      ]);
      const fields = out.split('\0');
      const at = fields.findIndex((field, i) => field.startsWith('R') && fields[i + 1] === name);
      const next = at < 0 ? undefined : fields[at + 2];
      if (next === undefined || names.includes(next)) break;
      names.push(next);
      if (await existsAt(ctx, ctx.head, next)) break;
      name = next;
    }
    return names;
  });
}

/** Where `file` is in HEAD's tree: itself, the last of its later names, or undefined when deleted. */
export async function nameAtHead(ctx: GitContext, file: string): Promise<string | undefined> {
  if (await existsAt(ctx, ctx.head, file)) return file;
  const last = (await laterNames(ctx, file)).at(-1);
  return last !== undefined && (await existsAt(ctx, ctx.head, last)) ? last : undefined;
}

/** Renames followed forward from one file (a chain longer than this is not worth the git calls). */
const MAX_RENAMES = 4;

/**
 * The versions of one file under its former names and its name now, oldest first. The commit that
 * renamed it deleted the former name: that version is the new name's, not a deletion.
 */
async function versionsAcross<T>(
  ctx: GitContext,
  paths: readonly string[],
  reader: FileReader<T>,
): Promise<Array<Version<T>>> {
  const lists = await Promise.all(paths.map((path) => fileVersions(ctx, path, reader)));
  if (lists.length === 1) return lists[0] as Array<Version<T>>;
  // A commit in a later name's list renamed the earlier one: the earlier list's version is no deletion.
  const versions = lists.flatMap((list, i) => {
    const later = new Set(lists.slice(i + 1).flatMap((l) => l.map((v) => v.commit.hash)));
    return list.filter((v) => !later.has(v.commit.hash));
  });
  return versions.sort((a, b) => a.committed - b.committed);
}

/**
 * Whether a claim about files held in the commit the memory described (`asOf`): in any of them.
 * A claim that was false when it was written did not drift (it named another project's package,
 * a file of the reader's, or was a mistake): the caller says so instead of blaming a commit.
 * Undefined when history cannot tell (no commit for the memory's time).
 */
export async function heldAt<T>(
  ctx: GitContext,
  files: readonly string[],
  asOf: string | undefined,
  reader: FileReader<T>,
  holds: (value: T) => boolean,
): Promise<boolean | undefined> {
  if (!asOf) return undefined;
  for (const file of files) {
    const then = await versionAt(ctx, asOf, file, reader);
    if (then !== 'unreadable' && holds(then)) return true;
  }
  return false;
}

/** The file as it was at `commit`, read once per commit, file and reader. */
function versionAt<T>(
  ctx: GitContext,
  commit: string,
  file: string,
  reader: FileReader<T>,
): Promise<T | 'unreadable'> {
  return historyAnswer(
    ctx,
    `at\u0000${reader.name}\u0000${commit}\u0000${file}`,
    'commits',
    async () => {
      const text = await objectsOf(ctx).get(`${commit}:${file}`);
      return reader.read(text, file);
    },
    orUnreadable(reader.codec),
  );
}

/** A reader's codec around `unreadable` (a plain string either way); none when values are JSON. */
function orUnreadable<T>(codec: AnswerCodec<T> | undefined): AnswerCodec<T | 'unreadable'> | undefined {
  if (!codec) return undefined;
  return {
    encode: (value) => (value === 'unreadable' ? value : { value: codec.encode(value) }),
    decode: (json) => (json === 'unreadable' ? json : codec.decode((json as { value: unknown }).value)),
  };
}

/** A reader's codec over a file's versions. */
function versionsCodec<T>(codec: AnswerCodec<T> | undefined): AnswerCodec<Array<Version<T>>> | undefined {
  if (!codec) return undefined;
  return {
    encode: (versions) => versions.map((v) => ({ ...v, value: codec.encode(v.value) })),
    decode: (json) => (json as Array<Version<unknown>>).map((v) => ({ ...v, value: codec.decode(v.value) })),
  };
}

/**
 * The commits that changed `file` on the way from `asOf` to HEAD (`--ancestry-path`): work on a
 * branch that forked before the memory and was merged after it counts from its merge, not from
 * its own older commits.
 */
function descendants(ctx: GitContext, asOf: string, file: string): Promise<Set<string>> {
  return historyAnswer(
    ctx,
    `descendants\u0000${asOf}\u0000${file}`,
    'head',
    () =>
      ctx.git
        .raw([LITERAL, 'rev-list', '--ancestry-path', `${asOf}..HEAD`, '--', file])
        .then((out) => new Set(out.split('\n').filter((line) => line.length > 0))),
    SET_CODEC as AnswerCodec<Set<string>>,
  );
}

/** Every readable version of a file in HEAD's history, oldest first, read once per HEAD and reader. */
function fileVersions<T>(ctx: GitContext, file: string, reader: FileReader<T>): Promise<Array<Version<T>>> {
  return historyAnswer(
    ctx,
    // The key says "ordered": answers stored before ties kept their order are not reused.
    `ordered versions\u0000${reader.name}\u0000${file}`,
    'head',
    async () => {
      const out = await ctx.git.raw([LITERAL, 'log', COMMIT_FORMAT, 'HEAD', '--', file]);
      const commits = out
        .split('\x1e')
        .map((chunk) => parseDatedCommit(chunk.trim()))
        .filter((c) => c !== undefined)
        // git log lists newest first; reversed, then a stable sort, commits with one committer
        // time (a rebased branch: every commit gets the time of the rebase) keep their order.
        .reverse()
        .sort((a, b) => a.committed - b.committed);
      const objects = objectsOf(ctx);
      const texts = await Promise.all(commits.map((c) => objects.get(`${c.commit.hash}:${file}`)));
      const versions: Array<Version<T>> = [];
      commits.forEach((c, i) => {
        const value = reader.read(texts[i], file);
        if (value !== 'unreadable') versions.push({ ...c, value });
      });
      return versions;
    },
    versionsCodec(reader.codec),
  );
}

/** Per HEAD's process cache: an object (`commit:path`) never changes, whichever check asks. */
const objectLoaders = new WeakMap<GitContext['cache'], BatchLoader<string | undefined>>();

/**
 * The files read at commits, one `git cat-file --batch` for all those asked at once: claims are
 * verified together, and each versionAt alone was a process (26 on mocha's first check), and a
 * file read by several readers (dependencies, scripts of package.json) is read once.
 */
function objectsOf(ctx: GitContext): BatchLoader<string | undefined> {
  let loader = objectLoaders.get(ctx.cache);
  if (!loader) {
    loader = new BatchLoader(async (objects) => {
      const texts = await catFiles(ctx.root, objects).catch((error: unknown) => {
        throw new GitFailure(error instanceof Error ? error.message : String(error));
      });
      return new Map(objects.map((object, i) => [object, texts[i]]));
    }, undefined);
    objectLoaders.set(ctx.cache, loader);
  }
  return loader;
}
