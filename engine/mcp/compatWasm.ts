import v8 from 'node:v8';

/**
 * Makes V8 compile WebAssembly (sql.js's SQLite) with its baseline compiler, Liftoff, only: hot
 * functions are no longer recompiled by TurboFan. Tiering SQLite's statement interpreter up took
 * ~30 MB of compiler memory at its peak, and the process kept ~40 MB more RSS after it (an idle
 * compat bridge 133 -> 91 MB; after 1k entities 147 -> 110 MB), while a compat call spends most
 * of its time in JSON and the MCP SDK, not in SQL (docs/benchmarks.md). A process-wide V8 flag:
 * call it before sql.js compiles its module, that is before the engine opens.
 */
export function compileWasmWithBaselineOnly(): void {
  v8.setFlagsFromString('--liftoff-only');
}
