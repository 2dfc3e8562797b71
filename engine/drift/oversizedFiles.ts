import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_MAX_FILE_BYTES } from '../code/walker';
import type { GitContext } from './gitHistory';

/** Stats in flight at once: enough to hide latency, few enough not to exhaust file handles. */
const STAT_BATCH = 256;

/**
 * Untracked (not ignored) files larger than the scanner reads. `git grep --untracked` reads every
 * such file whole before deciding it is binary (a 2 GB sparse file: 16.6 s), so drift leaves them
 * out as the scanner does. Paths are relative to the context's root, as git grep prints them.
 */
export async function oversizedUntracked(
  ctx: GitContext,
  maxBytes: number = DEFAULT_MAX_FILE_BYTES,
): Promise<string[]> {
  const out = await ctx.git.raw(['ls-files', '-z', '--others', '--exclude-standard']);
  const files = out.split('\0').filter((file) => file.length > 0);
  const oversized: string[] = [];
  for (let i = 0; i < files.length; i += STAT_BATCH) {
    const batch = files.slice(i, i + STAT_BATCH);
    // lstat: a symlink is grepped as its target path, never as the file it points to.
    const sizes = await Promise.all(
      batch.map((file) =>
        lstat(path.join(ctx.root, file)).then(
          (s) => s.size,
          () => 0,
        ),
      ),
    );
    batch.forEach((file, index) => {
      if ((sizes[index] ?? 0) > maxBytes) oversized.push(file);
    });
  }
  return oversized;
}

/** Pathspecs that keep `git grep` out of `files` (literal: names with `*` or `?` stay names). */
export function excludePathspecs(files: readonly string[]): string[] {
  return files.map((file) => `:(exclude,literal)${file}`);
}
