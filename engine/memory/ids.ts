import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

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
  for (const byte of randomBytes(10)) random += ALPHABET[byte % 32]!;
  return `${prefix}_${time}${random}`;
}
