import { storedText } from '../extract/storedText';
import type { SqlParams, SqlValue } from './statementLog';

/**
 * The write policy of the store: every text a write binds loses its secrets before the statement
 * runs and is journaled, so no secret reaches the database, the journal or a snapshot, whichever
 * method wrote it (request records, ledger data, imports, graph writes...). The memory model
 * redacts the fields it owns before this (so that its results, content hashes and indexes agree
 * with what is stored); here nothing changes then. The caller's array is never modified.
 */
export function storedParams(params: SqlParams): SqlParams {
  if (Array.isArray(params)) {
    let copy: SqlValue[] | undefined;
    for (let i = 0; i < params.length; i++) {
      const value = params[i];
      if (typeof value !== 'string') continue;
      const stored = storedText(value);
      if (stored !== value) (copy ??= params.slice())[i] = stored;
    }
    return copy ?? params;
  }
  let copy: Record<string, SqlValue> | undefined;
  for (const [key, value] of Object.entries(params)) {
    if (typeof value !== 'string') continue;
    const stored = storedText(value);
    if (stored !== value) (copy ??= { ...params })[key] = stored;
  }
  return copy ?? params;
}
