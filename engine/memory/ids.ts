import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case
/** The random part: 10 characters of 5 bits, 50 bits, exact in a double. */
const RANDOM_CHARS = 10;
const RANDOM_SPAN = 2 ** (5 * RANDOM_CHARS);

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

/** The millisecond of the last id and its random part: the next id in that millisecond follows it. */
let lastTime = -1;
let lastRandom = 0;

/**
 * Time-sortable ids (read back out of texts by engine/extract/idReferences.ts): 10 characters of milliseconds then 10 random characters, so ids sort by
 * creation and a short prefix is usually unique (the CLI accepts prefixes). Within one
 * millisecond a process's ids are monotonic (ULID's rule: the random part of the previous id plus
 * one), so they sort by creation there too: a batch of writes shares its millisecond, and
 * recall breaks ties between equal scores by id, which must not fall differently on every run.
 */
export function newId(prefix: string, now: number): string {
  const time = Math.max(0, Math.floor(now));
  if (time === lastTime && lastRandom + 1 < RANDOM_SPAN) lastRandom++;
  else {
    lastRandom = 0;
    for (let i = 0; i < RANDOM_CHARS; i++) lastRandom = lastRandom * 32 + (randomByte() % 32);
  }
  lastTime = time;
  return `${prefix}_${base32(time, 10)}${base32(lastRandom, RANDOM_CHARS)}`;
}

function base32(value: number, chars: number): string {
  let text = '';
  let rest = value;
  for (let i = 0; i < chars; i++) {
    text = ALPHABET[rest % 32]! + text;
    rest = Math.floor(rest / 32);
  }
  return text;
}
