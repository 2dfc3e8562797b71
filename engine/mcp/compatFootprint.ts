import type { OpenEngramOptions } from '../engram';

/**
 * What a compat bridge gives up to stay as small as the official memory server (issue 16,
 * docs/benchmarks.md): engine options over the other profiles'. See also baselineWasm.ts (sql.js
 * compiled by V8's baseline compiler only).
 *
 * - pageCacheKib: SQLite's page cache, 2 MiB against 32 MiB. The database file is already in
 *   memory, so a cached page is a second copy: at 10k entities the larger cache held ~7 MB more
 *   WASM memory, with the same search_nodes and write times (a knowledge-graph read touches each
 *   page once; the large cache pays off for batches of remembers).
 * - checkpointWorkerMinBytes: 16 MiB against 4 MiB. A checkpoint worker's buffers (the database
 *   it reads, sql.js's in-memory file, the export) come from its thread's malloc arena, which glibc
 *   keeps resident after the thread ends: at 10k entities 30-35 MB of a 64 MB arena
 *   (/proc/<pid>/smaps). Below 16 MiB the bridge exports on its own thread instead: ~45 ms for the
 *   8.6 MB database of 10k entities, once per 16 MB of journal or after 5 s idle; past it the
 *   worker keeps the bridge from blocking for longer.
 */
export const COMPAT_ENGINE_OPTIONS = {
  pageCacheKib: 2048,
  checkpointInWorker: true,
  checkpointWorkerMinBytes: 16 * 1024 * 1024,
} as const satisfies Partial<OpenEngramOptions>;
