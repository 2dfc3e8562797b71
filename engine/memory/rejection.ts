import type { RememberRejection } from './types';

/**
 * The answer for a memory of a batch refused by `error` (an EngramError, or a schema's line);
 * `index` is its position in the batch.
 */
export function rejection(index: number, error: RememberRejection['error']): RememberRejection {
  return { outcome: 'rejected', index, error: { code: error.code, message: error.message } };
}
