import { spawn } from 'node:child_process';
import { readManifest, manifestKindOf } from '../code/manifests/readManifest';
import type { ManifestData } from '../code/types';
import type { CommitEvidence } from './claimTypes';
import { COMMIT_FORMAT, LITERAL, gitEnvironment, parseDatedCommit } from './gitHistory';
import type { GitContext } from './gitHistory';

/** One version of a manifest: the commit that wrote it and what it declared then. */
interface ManifestVersion {
  commit: CommitEvidence;
  committed: number;
  /** Undefined when the commit deleted the file. */
  data: ManifestData | undefined;
}

/**
 * The commit that made a manifest claim false: the earliest version of the manifests, after the
 * commit the memory described (`asOf`), for which `isFalse` says so (a dependency dropped or on
 * another major, a script gone, a denied package added). A version bump does not change how often
 * the package's name occurs, so pickaxe cannot see it; reading each version of the file can. With
 * several manifests, a claim about presence is false once it holds in none of them (`every`), a
 * denial once one breaks it (`any`). A file where the claim did not hold at `asOf` cannot be the
 * one that made it false.
 */
export async function firstManifestBreak(
  ctx: GitContext,
  files: readonly string[],
  asOf: string | undefined,
  isFalse: (data: ManifestData | undefined) => boolean,
  mode: 'every' | 'any',
): Promise<CommitEvidence | undefined> {
  if (!asOf || asOf === ctx.head) return undefined;
  const breaks: CommitEvidence[] = [];
  for (const file of files) {
    const then = await versionAt(ctx, asOf, file);
    // Not there, or not holding, when the memory was written: this file cannot have broken it.
    if (then === 'unreadable' || then === undefined || isFalse(then)) continue;
    const [versions, after] = await Promise.all([manifestVersions(ctx, file), descendants(ctx, asOf, file)]);
    const broken = versions.find((v) => after.has(v.commit.hash) && isFalse(v.data));
    if (broken) breaks.push(broken.commit);
    else if (mode === 'every') return undefined;
  }
  if (breaks.length === 0) return undefined;
  breaks.sort((a, b) => a.time - b.time);
  return mode === 'any' ? breaks[0] : breaks[breaks.length - 1];
}

/** The manifest as it was at `commit`, read once per commit and file. */
function versionAt(
  ctx: GitContext,
  commit: string,
  file: string,
): Promise<ManifestData | undefined | 'unreadable'> {
  const key = `at\u0000${commit}\u0000${file}`;
  let answer = ctx.cache.walks.get(key) as Promise<ManifestData | undefined | 'unreadable'> | undefined;
  if (!answer) {
    answer = readAt(ctx, [`${commit}:${file}`], file)
      .then(([data]) => data)
      .catch(() => 'unreadable' as const);
    ctx.cache.walks.set(key, answer);
  }
  return answer;
}

/**
 * The commits that changed `file` on the way from `asOf` to HEAD (`--ancestry-path`): work on a
 * branch that forked before the memory and was merged after it counts from its merge, not from
 * its own older commits.
 */
function descendants(ctx: GitContext, asOf: string, file: string): Promise<Set<string>> {
  const key = `descendants\u0000${asOf}\u0000${file}`;
  let answer = ctx.cache.walks.get(key) as Promise<Set<string>> | undefined;
  if (!answer) {
    answer = ctx.git
      .raw([LITERAL, 'rev-list', '--ancestry-path', `${asOf}..HEAD`, '--', file])
      .then((out) => new Set(out.split('\n').filter((line) => line.length > 0)))
      .catch(() => new Set<string>());
    ctx.cache.walks.set(key, answer);
  }
  return answer;
}

/** Every version of one manifest in HEAD's history, oldest first, read once per HEAD. */
function manifestVersions(ctx: GitContext, file: string): Promise<ManifestVersion[]> {
  const key = `manifest\u0000${file}`;
  let answer = ctx.cache.walks.get(key) as Promise<ManifestVersion[]> | undefined;
  if (!answer) {
    answer = readVersions(ctx, file).catch(() => []);
    ctx.cache.walks.set(key, answer);
  }
  return answer;
}

async function readVersions(ctx: GitContext, file: string): Promise<ManifestVersion[]> {
  const out = await ctx.git.raw([LITERAL, 'log', COMMIT_FORMAT, 'HEAD', '--', file]);
  const commits = out
    .split('\x1e')
    .map((chunk) => parseDatedCommit(chunk.trim()))
    .filter((c) => c !== undefined)
    .sort((a, b) => a.committed - b.committed);
  const data = await readAt(
    ctx,
    commits.map((c) => `${c.commit.hash}:${file}`),
    file,
  );
  const versions: ManifestVersion[] = [];
  commits.forEach((c, i) => {
    const read = data[i];
    // Unreadable (a merge that committed conflict markers) says nothing either way: left out
    // rather than taken for a drop. Deleted (undefined) declares nothing.
    if (read !== 'unreadable') versions.push({ ...c, data: read });
  });
  return versions;
}

/** Manifests at `commit:path` objects, read as `file`'s format; undefined where absent. */
async function readAt(
  ctx: GitContext,
  objects: readonly string[],
  file: string,
): Promise<Array<ManifestData | undefined | 'unreadable'>> {
  const kind = manifestKindOf(file);
  if (!kind) return objects.map(() => 'unreadable');
  const texts = await catFiles(ctx.root, objects);
  return texts.map((text) => {
    if (text === undefined) return undefined;
    const record = readManifest(kind, text);
    return record.data.error ? 'unreadable' : record.data;
  });
}

/**
 * The contents of `objects` (`commit:path`) in one `git cat-file --batch`: undefined for an object
 * that does not exist (the commit deleted the file). simple-git cannot write to git's stdin.
 */
function catFiles(root: string, objects: readonly string[]): Promise<Array<string | undefined>> {
  if (objects.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], {
      cwd: root,
      env: gitEnvironment(),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', () => resolve(parseBatch(Buffer.concat(chunks), objects.length)));
    child.stdin.end(`${objects.join('\n')}\n`);
  });
}

function parseBatch(output: Buffer, count: number): Array<string | undefined> {
  const texts: Array<string | undefined> = [];
  let at = 0;
  while (texts.length < count && at < output.length) {
    const headerEnd = output.indexOf(0x0a, at);
    if (headerEnd === -1) break;
    const header = output.subarray(at, headerEnd).toString('utf8');
    const size = /^[0-9a-f]+ blob (\d+)$/.exec(header)?.[1];
    if (size === undefined) {
      // `<object> missing` (or not a blob): nothing follows the header.
      texts.push(undefined);
      at = headerEnd + 1;
      continue;
    }
    const start = headerEnd + 1;
    texts.push(output.subarray(start, start + Number(size)).toString('utf8'));
    at = start + Number(size) + 1;
  }
  while (texts.length < count) texts.push(undefined);
  return texts;
}
