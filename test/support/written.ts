import assert from 'node:assert/strict';
import type { RememberManyResult, RememberResult } from '../../engine/memory/types';

/** The results of a batch whose every memory was written; a rejection fails the test, naming it. */
export function written(results: readonly RememberManyResult[]): RememberResult[] {
  return results.map((result) => {
    assert.notEqual(result.outcome, 'rejected', JSON.stringify(result));
    return result as RememberResult;
  });
}
