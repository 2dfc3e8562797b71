/**
 * Tokens of a text as a modern OpenAI BPE (o200k) counts them: a real tokenizer, since
 * characters/4 is off by 2x for code and non-English text. Other model families differ by a few
 * percent, which the budgets' headroom absorbs.
 *
 * The tokenizer's tables take ~0.5 s to load, so they load on first use, not with the engine:
 * most CLI calls and writes never count tokens.
 */
type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;
let count: CountTokens | undefined;

/**
 * Special tokens (`<|endoftext|>`) written in a memory are text, as a model reading it gets them:
 * the tokenizer refuses them by default, which failed every budgeted read of such a memory.
 */
const SPECIAL_AS_TEXT = { disallowedSpecial: new Set<string>() };

export function tokenCount(text: string): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  count ??= (require('gpt-tokenizer') as { countTokens: CountTokens }).countTokens;
  return count(text, SPECIAL_AS_TEXT);
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
