import path from 'node:path';
import { parseEmbeddingSetting } from '../embedding/embeddingSetting';
import type { UseLiteAssets } from '../embedding/useLiteAssets';
import type { WorkerScripts } from '../process/workerScripts';
import { stderrLogger } from '../host';
import { prepareDatabaseDirectory, resolveDatabasePath, userDataDirectory } from '../paths';
import { BridgeRuntime } from './processRuntime';
import { COMPAT_ENGINE_OPTIONS } from './compatFootprint';
import { bridgeCompilesBaselineOnly, compileWasmWithBaselineOnly } from './baselineWasm';
import { tokenFilePath } from './httpToken';
import { parseProfile } from './profiles';
import { serveStdio } from './stdioBridge';

/** What the bridge is started with: `dist/mcp.js [options]` or `engram serve --mcp [options]`. */
export interface BridgeLaunch {
  db?: string;
  workspace?: string;
  user?: boolean;
  profile?: string;
  http?: boolean;
  /** With http. @default 0 (any free port) */
  port?: number;
  /** With http: seconds without a request before an MCP session is closed. @default 1800 */
  sessionIdle?: number;
  /** With http: seconds for a whole request to arrive. @default 30 */
  requestTimeout?: number;
  embedding?: string;
  /** Serve as the team server (engine/teamServer): memories only, named `team-server` to the engine. */
  team?: boolean;
  /** With team: a PostgreSQL URL, the store of record (engine/pgStore). */
  store?: string;
}

/** The process around the bridge; the only place it reads the environment. */
export interface BridgeEnvironment {
  cwd: string;
  env: NodeJS.ProcessEnv;
  home: string;
  platform: NodeJS.Platform;
  sqlWasmPath: string;
  /** The worker scripts (workerScriptsIn(dist)). @default defaultWorkerScripts() */
  workers?: WorkerScripts;
  /** The tree-sitter grammars and queries (dist/grammars beside the bundle). */
  grammarsDirectory: string;
  useLiteAssets: () => UseLiteAssets;
}

/**
 * The runtime a bridge serves, from its launch options and environment: the profile, how to find
 * the database, the engine's options. No side effects (nothing opens until the first call), so a
 * test can serve it in its own process over the SDK's in-memory transport.
 */
export function bridgeRuntime(launch: BridgeLaunch, io: BridgeEnvironment): BridgeRuntime {
  const logger = stderrLogger(io.env['ENGRAM_LOG'] === 'debug' ? 'debug' : 'warn');
  const profile =
    launch.profile !== undefined
      ? parseProfile(launch.profile, '--profile')
      : parseProfile(io.env['ENGRAM_MCP_PROFILE'], 'ENGRAM_MCP_PROFILE');
  const choice = {
    db: launch.db,
    workspace: launch.workspace,
    user: launch.user,
    cwd: io.cwd,
    env: io.env,
    home: io.home,
    platform: io.platform,
  };
  const embedding = parseEmbeddingSetting(launch.embedding ?? io.env['ENGRAM_EMBEDDING'] ?? 'off', {
    useLiteAssets: io.useLiteAssets,
    modelDir: path.join(userDataDirectory(io.env, io.home, io.platform), 'models'),
    env: io.env,
  });
  return new BridgeRuntime({
    profile,
    choice,
    logger,
    grammarsDirectory: io.grammarsDirectory,
    memoriesOnly: launch.team === true,
    engine: {
      sqlWasmPath: io.sqlWasmPath,
      ...(io.workers ? { workers: io.workers } : {}),
      clientName: launch.team ? 'team-server' : 'mcp',
      ...(launch.store === undefined ? {} : { store: launch.store }),
      logger,
      embedding,
      warmEmbedding: true,
      checkpointInWorker: true,
      // Engram's own memories have a lifecycle; the compat graph is the client's, kept as written.
      ...(profile === 'compat' ? COMPAT_ENGINE_OPTIONS : {}),
      ...(profile === 'compat' ? {} : { lifecycleEveryMs: LIFECYCLE_EVERY_MS }),
    },
  });
}

/** Runs the bridge until its client goes away (stdio) or it is told to stop (http); the engine is closed (and the database handed over) on the way out. */
export async function runBridge(launch: BridgeLaunch, io: BridgeEnvironment): Promise<void> {
  const runtime = bridgeRuntime(launch, io);
  // Process-wide, so here and not in bridgeRuntime; before the engine (and sql.js's wasm) loads on
  // the first call. Which bridges and why: baselineWasm.ts.
  if (bridgeCompilesBaselineOnly(launch, runtime.profile, runtime.settings.engine.embedding))
    compileWasmWithBaselineOnly();
  try {
    if (launch.http) {
      const dbPath = resolveDatabasePath(runtime.settings.choice);
      // The .gitignore first: the engine opens lazily, and a token file without it would be staged by `git add -A`.
      prepareDatabaseDirectory(dbPath);
      // Loaded for --http only: the SDK's Streamable HTTP transport and its server stack are
      // dead weight in a stdio bridge.
      const { serveHttp } = await import('./httpBridge');
      await serveHttp(runtime, {
        port: launch.port ?? 0,
        tokenFile: tokenFilePath(dbPath),
        ...(launch.sessionIdle === undefined ? {} : { sessionIdleMs: launch.sessionIdle * 1000 }),
        ...(launch.requestTimeout === undefined ? {} : { requestTimeoutMs: launch.requestTimeout * 1000 }),
      });
    } else {
      const stopped = new Promise<void>((resolve) => {
        process.once('SIGTERM', resolve);
        process.once('SIGINT', resolve);
      });
      await Promise.race([serveStdio(runtime), stopped]);
    }
  } finally {
    await runtime.close();
  }
}

/** How often a bridge serving Engram's own tools runs the lifecycle (engine/lifecycle). */
const LIFECYCLE_EVERY_MS = 15 * 60 * 1000;
