// gpt-tokenizer's o200k rank table as a file engine/retrieval/bpeRankTable.ts reads without parsing.
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Writes dist/lazy/o200k.bin: uint32 count, uint32 offsets[count + 1], then every token's bytes
 * end to end in rank order (little-endian). A token is its text's UTF-8 bytes, or its bytes
 * where the library lists them as numbers (the tokens that are not UTF-8 on their own). Gzipped:
 * the installed extension has a 40 MB budget (test/vscode/packageContent.test.ts).
 */
export function writeTokenizerTable(file) {
  const ranks = require('gpt-tokenizer/cjs/bpeRanks/o200k_base').default;
  if (!Array.isArray(ranks) || ranks.length !== Object.keys(ranks).length)
    throw new Error('gpt-tokenizer o200k_base: expected a dense array of tokens');
  const tokens = ranks.map((token) =>
    typeof token === 'string' ? Buffer.from(token, 'utf8') : Buffer.from(token),
  );
  const head = Buffer.alloc(4 * (tokens.length + 2));
  head.writeUInt32LE(tokens.length, 0);
  let offset = 0;
  tokens.forEach((token, rank) => {
    head.writeUInt32LE(offset, 4 * (rank + 1));
    offset += token.length;
  });
  head.writeUInt32LE(offset, 4 * (tokens.length + 1));
  writeFileSync(file, gzipSync(Buffer.concat([head, ...tokens]), { level: 9 }));
}
