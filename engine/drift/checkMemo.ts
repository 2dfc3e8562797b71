import type { VerificationContext } from './verificationContext';

/** Values per check: dropped with the check's context, so nothing outlives what it was read from. */
const memos = new WeakMap<VerificationContext, Map<string, unknown>>();

/**
 * `compute()` once per check and key: docs name the same options in many memories, and a file
 * read or parsed per claim instead of per name costs a 500-memory re-check its 2 s budget.
 */
export function oncePerCheck<T>(ctx: VerificationContext, key: string, compute: () => T): T {
  let memo = memos.get(ctx);
  if (!memo) memos.set(ctx, (memo = new Map<string, unknown>()));
  if (!memo.has(key)) memo.set(key, compute());
  return memo.get(key) as T;
}
