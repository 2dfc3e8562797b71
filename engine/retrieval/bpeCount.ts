import type { BpeRankTable } from './bpeRankTable';

/**
 * o200k's pre-tokenizer: the text is split into these pieces and each piece is encoded alone
 * (tiktoken's pattern for o200k_base, as gpt-tokenizer spells it for JavaScript's regular expressions).
 */
const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
export const O200K_PIECES = new RegExp(
  [
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}`,
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
    String.raw`\s*[\r\n]+`,
    String.raw`\s+(?!\S)`,
    String.raw`\s+`,
  ].join('|'),
  'gu',
);

const encoder = new TextEncoder();
let scratch = new Uint8Array(1024);

/** Pieces whose counts a counter keeps at most; then its cache starts over. */
const MAX_CACHED_PIECES = 50_000;

/**
 * Counts tokens under byte-pair encoding with `table` and o200k's pre-tokenizer, special tokens
 * (`<|endoftext|>`) read as text: each piece is one token when it is one, else its bytes are
 * merged pair by pair, always the adjacent pair of lowest rank first (leftmost on a tie), until no
 * adjacent pair is a token; the count is what is left. A lone surrogate is encoded as U+FFFD, as
 * TextEncoder writes it and gpt-tokenizer reads it (the merges reach every o200k token holding
 * U+FFFD, so looking a piece up whole gives the library's count). gpt-tokenizer misses the nine
 * tokens that begin with U+FEFF (its byte lookup decodes them without the byte order mark); this
 * counts them as o200k lists them. Each piece's count is kept: words repeat, and a Map lookup
 * costs less than encoding and hashing them again (warm, this counts the repository's sources
 * faster than gpt-tokenizer with its merge cache).
 */
export function bpeTokenCounter(table: BpeRankTable): (text: string) => number {
  const pieceTokens = new Map<string, number>();
  return (text) => countPieces(table, pieceTokens, text);
}

function countPieces(table: BpeRankTable, pieceTokens: Map<string, number>, text: string): number {
  let tokens = 0;
  for (const [piece] of text.matchAll(O200K_PIECES)) {
    const known = pieceTokens.get(piece);
    if (known !== undefined) {
      tokens += known;
      continue;
    }
    if (scratch.length < piece.length * 3) scratch = new Uint8Array(piece.length * 3);
    const length = encoder.encodeInto(piece, scratch).written;
    const count = table.rankOf(scratch, 0, length) >= 0 ? 1 : mergedLength(table, scratch, length);
    if (pieceTokens.size >= MAX_CACHED_PIECES) pieceTokens.clear();
    pieceTokens.set(piece, count);
    tokens += count;
  }
  return tokens;
}

/** How many tokens the bytes `piece[0, length)` merge into. */
function mergedLength(table: BpeRankTable, piece: Uint8Array, length: number): number {
  // starts[i]: where part i begins (starts[parts] = length); rank[i]: the rank of parts i and i + 1 joined.
  const starts = new Int32Array(length + 1);
  const rank = new Float64Array(length);
  for (let i = 0; i <= length; i++) starts[i] = i;
  let parts = length;
  const joined = (i: number): number => {
    if (i + 2 > parts) return Infinity;
    const r = table.rankOf(piece, starts[i]!, starts[i + 2]!);
    return r < 0 ? Infinity : r;
  };
  for (let i = 0; i < parts; i++) rank[i] = joined(i);
  for (;;) {
    let best = -1;
    let lowest = Infinity;
    for (let i = 0; i < parts - 1; i++)
      if (rank[i]! < lowest) {
        lowest = rank[i]!;
        best = i;
      }
    if (best < 0) return parts;
    // Join parts best and best + 1: drop the start of best + 1.
    starts.copyWithin(best + 1, best + 2, parts + 1);
    rank.copyWithin(best + 1, best + 2, parts);
    parts--;
    rank[best] = joined(best);
    if (best > 0) rank[best - 1] = joined(best - 1);
  }
}
