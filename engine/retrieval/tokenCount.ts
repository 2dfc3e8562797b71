import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bpeTokenCounter } from './bpeCount';
import { decodeRankTable } from './bpeRankTable';

/**
 * Tokens of a text as a modern OpenAI BPE (o200k) counts them: a real tokenizer, since
 * characters/4 is off by 2x for code and non-English text. Other model families differ by a few
 * percent, which the budgets' headroom absorbs.
 *
 * A built bundle counts with the rank table beside it (dist/lazy/o200k.bin, bpeRankTable.ts),
 * which loads in milliseconds; gpt-tokenizer's own tables took ~0.2-0.3 s of CPU to load, most of
 * an MCP bridge's first answer. gpt-tokenizer still counts from the sources (tests: both count
 * the same, test/retrieval/bpeCount.test.ts) and any text that could hold a special token or a
 * lone surrogate, so what it does with those stays as it was. Either loads on first use, not with
 * the engine: most CLI calls and writes never count tokens.
 */
type CountTokens = (text: string) => number;
type LibraryCount = (text: string, options: { disallowedSpecial: Set<string> }) => number;
let library: LibraryCount | undefined;
let counter: CountTokens | null | undefined;

/** What the bundled table cannot count as gpt-tokenizer does: `<|` begins every special token. */
const LIBRARY_ONLY = /<\||\p{Cs}/u;

/**
 * Special tokens (`<|endoftext|>`) written in a memory are text, as a model reading it gets them:
 * the tokenizer refuses them by default, which failed every budgeted read of such a memory.
 */
const SPECIAL_AS_TEXT = { disallowedSpecial: new Set<string>() };

export function tokenCount(text: string): number {
  if (counter === undefined) counter = bundledCounter();
  if (counter && !LIBRARY_ONLY.test(text)) return counter(text);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  library ??= (require('gpt-tokenizer') as { countTokens: LibraryCount }).countTokens;
  return library(text, SPECIAL_AS_TEXT);
}

/** The table scripts/tokenizerTable.mjs writes beside the bundles (every bundle is in dist/); none from the sources. */
function bundledCounter(): CountTokens | null {
  const file = path.join(__dirname, 'lazy', 'o200k.bin');
  if (__filename.endsWith('.ts') || !existsSync(file)) return null;
  return bpeTokenCounter(decodeRankTable(readFileSync(file)));
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
