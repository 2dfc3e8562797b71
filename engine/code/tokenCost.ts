import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { tokenCount } from '../retrieval/tokenCount';
import type { MemoryDraft } from './memoryDrafts';

export interface TokenCost {
  memoryTokens: number;
  sourceTokens: number;
  /** memoryTokens / sourceTokens; the goal is at most 0.1. 0 when there is no source. */
  ratio: number;
}

/** What the codebase memories cost against the source they summarise, in real (o200k) tokens. */
export function tokenCost(drafts: readonly MemoryDraft[], sourceTokens: number): TokenCost {
  const memoryTokens = drafts.reduce((sum, draft) => sum + tokenCount(draft.content), 0);
  return { memoryTokens, sourceTokens, ratio: sourceTokens > 0 ? memoryTokens / sourceTokens : 0 };
}

/**
 * Tokens of the given root-relative files as they are on disk now (unreadable files count 0);
 * `counted` holds the counts a scan made as it read files (files it did not read are read here).
 */
export async function sourceTokens(
  root: string,
  relativePaths: readonly string[],
  counted: ReadonlyMap<string, number> = new Map(),
): Promise<number> {
  let total = 0;
  for (const relative of relativePaths) {
    const known = counted.get(relative);
    if (known !== undefined) {
      total += known;
      continue;
    }
    const text = await readFile(path.join(root, relative), 'utf8').catch(() => '');
    total += tokenCount(text);
  }
  return total;
}
