/**
 * What the compat profile's process gives up to stay as small as the official memory server
 * (issue 16, docs/benchmarks.md). See also compatWasm.ts (sql.js compiled by Liftoff only).
 */

/**
 * SQLite's page cache of a compat bridge (KiB), against 32 MiB for the other profiles. The database
 * file is already in memory, so a cached page is a second copy: at 10k entities a 32 MiB cache
 * held ~7 MB more WASM memory than this one, with the same search_nodes and write times
 * (knowledge-graph reads touch each page once; the large cache pays off for batches of remembers).
 */
export const COMPAT_PAGE_CACHE_KIB = 2048;
