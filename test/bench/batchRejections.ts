import type { RememberManyResult, RememberResult } from '../../engine/memory/types';

/**
 * A loader's view of a batch write: the written results at their batch positions (undefined where
 * a memory was rejected), each rejection reported on stderr with `label`. A loader goes on without
 * the rejected memories, as the engine does, and says so instead of dying on one of them.
 */
export function writtenOrReported(
  results: readonly RememberManyResult[],
  label: string,
): Array<RememberResult | undefined> {
  return results.map((result) => {
    if (result.outcome !== 'rejected') return result;
    process.stderr.write(`${label}: memory ${result.index} rejected: ${result.error.message}\n`);
    return undefined;
  });
}
