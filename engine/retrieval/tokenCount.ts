import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bpeTokenCounter } from './bpeCount';
import { type BpeRankTable, decodeRankTable, rankTableFromRanks } from './bpeRankTable';

/**
 * Tokens of a text as a modern OpenAI BPE (o200k) counts them: a real tokenizer, since
 * characters/4 is off by 2x for code and non-English text. Other model families differ by a few
 * percent, which the budgets' headroom absorbs.
 *
 * Counted with o200k's rank table (bpeCount.ts). A built bundle reads the table written beside it
 * (dist/lazy/o200k.bin, bpeRankTable.ts) in milliseconds; the sources build it from gpt-tokenizer's
 * rank list, a devDependency and the oracle the counts are tested against
 * (test/retrieval/bpeCount.test.ts). Special tokens (`<|endoftext|>`) written in a memory are
 * text, as a model reading it gets them, and a lone surrogate counts as U+FFFD, both as
 * gpt-tokenizer counts them. The table loads on first use, not with the engine: most CLI calls
 * and writes never count tokens.
 */
let counter: ((text: string) => number) | undefined;

/** gpt-tokenizer's o200k rank list, which scripts/tokenizerTable.mjs writes the bundles' table from. */
const SOURCE_RANKS = 'gpt-tokenizer/cjs/bpeRanks/o200k_base';

export function tokenCount(text: string): number {
  counter ??= bpeTokenCounter(rankTable());
  return counter(text);
}

function rankTable(): BpeRankTable {
  if (!__filename.endsWith('.ts')) {
    // Every bundle is in dist/, the table in dist/lazy/ (scripts/build.mjs).
    const file = path.join(__dirname, 'lazy', 'o200k.bin');
    if (!existsSync(file)) throw new Error(`the token count table is missing: ${file}`);
    return decodeRankTable(readFileSync(file));
  }
  // A name in a variable, not a literal: esbuild leaves this require out of the bundles.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ranks = (require(SOURCE_RANKS) as { default: Array<string | number[]> }).default;
  return rankTableFromRanks(ranks);
}

/** The longest prefix of `text` (cut at a word boundary when possible) within `budget` tokens. */
export function truncateToTokens(text: string, budget: number): string {
  if (budget <= 0) return '';
  if (tokenCount(text) <= budget) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (tokenCount(`${text.slice(0, mid)}…`) <= budget) low = mid;
    else high = mid - 1;
  }
  const cut = text.slice(0, low);
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${atWord.length > cut.length * 0.6 ? atWord : cut}…`;
}
