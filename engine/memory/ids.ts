import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

/** Random bytes are drawn in blocks: one crypto call per id costs more than the rest of the id. */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset >= pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/**
 * Time-sortable ids: 10 characters of milliseconds then 10 random characters, so ids sort by
 * creation and a short prefix is usually unique (the CLI accepts prefixes).
 */
export function newId(prefix: string, now: number): string {
  let time = '';
  let t = Math.max(0, Math.floor(now));
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  let random = '';
  for (let i = 0; i < 10; i++) random += ALPHABET[randomByte() % 32]!;
  return `${prefix}_${time}${random}`;
}
