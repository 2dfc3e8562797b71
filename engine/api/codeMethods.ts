import { invalidInput } from '../errors';
import { requireCodeWorkspace } from '../code/codeWorkspace';
import { searchFiles, searchSymbols } from '../code/codeQueries';
import type { MemoryStore } from '../memory/memoryStore';
import { optionalBoolean, optionalNumber, text } from './params';
import type { Params } from './params';

function limitOf(p: Params, fallback: number): number {
  const limit = optionalNumber(p, 'limit') ?? fallback;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw invalidInput(`limit must be 1 to 1000; got ${limit}`);
  return limit;
}

/**
 * The codebase layer's methods. `scan` writes (the code index and codebase memories) but is not
 * an exactly-once write: it is idempotent (a repeated scan finds nothing changed) and too long for
 * one transaction, so it commits per batch of files.
 */
export const CODE_METHODS = {
  scan: {
    write: false,
    run: (store: MemoryStore, p: Params) =>
      requireCodeWorkspace(store).scan(store, { tokens: optionalBoolean(p, 'tokens') }),
  },
  symbols: {
    write: false,
    run: (store: MemoryStore, p: Params) =>
      store.read((r) => searchSymbols(r, text(p, 'query'), limitOf(p, 20))),
  },
  files: {
    write: false,
    run: (store: MemoryStore, p: Params) =>
      store.read((r) => searchFiles(r, text(p, 'query'), limitOf(p, 20))),
  },
} as const;
