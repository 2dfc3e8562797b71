import v8 from 'node:v8';
import type { EmbeddingConfig } from '../embedding/types';
import type { BridgeLaunch } from './runBridge';
import type { Profile } from './profiles';

/**
 * Makes V8 compile WebAssembly (sql.js's SQLite) with its baseline compiler, Liftoff, only: hot
 * functions are no longer recompiled by TurboFan. A process-wide V8 flag: call it before sql.js
 * compiles its module, that is before the engine opens.
 */
export function compileWasmWithBaselineOnly(): void {
  v8.setFlagsFromString('--liftoff-only');
}

/**
 * Which bridges compile wasm with Liftoff only. The compat profile: tiering SQLite up took ~30 MB
 * of compiler memory at its peak and the process kept ~40 MB more RSS after it (an idle compat
 * bridge 133 -> 91 MB), while a compat call spends its time in JSON and the MCP SDK. A stdio
 * bridge without an embedding model: it is started per agent session, and TurboFan recompiling
 * SQLite's hot functions in background threads while it opened the database and answered its
 * first recall was ~0.27 s of the ~0.77 s of CPU from spawn to that answer at 10k memories, while
 * recall and remember after warm-up cost the same CPU either way and a scan parsed as fast
 * (docs/benchmarks.md). Bridges with a model keep TurboFan for the wasm that runs it (USE-lite's
 * TF.js kernels, hnswlib); the HTTP bridge and team server, long-lived servers of many clients, too.
 */
export function bridgeCompilesBaselineOnly(
  launch: BridgeLaunch,
  profile: Profile,
  embedding: EmbeddingConfig | null | undefined,
): boolean {
  return profile === 'compat' || (!launch.http && !launch.team && !embedding);
}
