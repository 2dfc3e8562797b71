// gpt-tokenizer's o200k rank table as a file engine/retrieval/bpeRankTable.ts reads without parsing.
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { tsImport } from 'tsx/esm/api';

const require = createRequire(import.meta.url);

/**
 * Writes dist/lazy/o200k.bin as BpeRankTable.encode lays it out (count, offsets, the hash table,
 * then every token's bytes end to end in rank order), with the engine's own code, so the hash
 * table the file stores is the one the engine would build. A token is its text's UTF-8 bytes, or
 * its bytes where the library lists them as numbers (the tokens that are not UTF-8 on their own).
 * Gzipped: the installed extension has a 40 MB budget (test/vscode/packageContent.test.ts).
 */
export async function writeTokenizerTable(file) {
  const ranks = require('gpt-tokenizer/cjs/bpeRanks/o200k_base').default;
  if (!Array.isArray(ranks) || ranks.length !== Object.keys(ranks).length)
    throw new Error('gpt-tokenizer o200k_base: expected a dense array of tokens');
  const { rankTableFromRanks } = await tsImport('../engine/retrieval/bpeRankTable.ts', import.meta.url);
  writeFileSync(file, gzipSync(rankTableFromRanks(ranks).encode(), { level: 9 }));
}
