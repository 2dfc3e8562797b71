import { EngramError } from '../errors';

/**
 * Checks that `value` is an array of arrays of finite numbers, as embedding APIs answer, and says
 * what the endpoint sent instead.
 */
export function asEmbeddingRows(value: unknown, endpoint: string, field: string): number[][] {
  const fail = (what: string) =>
    new EngramError('UNAVAILABLE', `${endpoint} returned ${field} ${what}`, { endpoint });
  if (!Array.isArray(value)) throw fail('that is not an array');
  return value.map((row: unknown, i) => {
    if (!Array.isArray(row) || !row.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw fail(`whose item ${i} is not an array of numbers`);
    }
    return row as number[];
  });
}
