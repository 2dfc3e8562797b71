import { createEmbeddingProvider } from '../embedding/createEmbeddingProvider';
import type { OpenEngramOptions } from '../engram';
import { silentLogger, systemClock } from '../host';
import { prepareDatabaseDirectory } from '../paths';
import { openShared } from '../process/sharedEngine';
import type { EngineRole, SharedEngine } from '../process/sharedEngine';
import { BridgeHost } from './bridgeHost';

/** What the tools need from the engine: one call surface, whether this process hosts or joins. */
export interface EngineLink {
  readonly role: EngineRole;
  call(method: string, params: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Opens the database as Engram.open does (host it, or join the process that hosts it, with
 * failover), except that a bridge that becomes the host also serves BRIDGE_METHODS. Engram.open
 * takes no dispatcher, and the engine's method table is edited elsewhere; when BRIDGE_METHODS is
 * merged into it, this can become Engram.open.
 */
export async function openBridgeEngine(options: OpenEngramOptions): Promise<EngineLink> {
  const logger = options.logger ?? silentLogger;
  prepareDatabaseDirectory(options.dbPath);
  const shared: SharedEngine = await openShared({
    dbPath: options.dbPath,
    clientName: options.clientName ?? 'engram-mcp',
    logger,
    connectTimeoutMs: options.connectTimeoutMs,
    openHost: () =>
      BridgeHost.open({
        dbPath: options.dbPath,
        sqlWasmPath: options.sqlWasmPath,
        logger,
        clock: options.clock ?? systemClock,
        limits: options.limits,
        snapshot: options.snapshot,
        code: options.code,
        embedding: options.embedding ? createEmbeddingProvider(options.embedding, logger) : null,
        warmEmbedding: options.warmEmbedding,
        checkpointInWorker: options.checkpointInWorker,
        onEmbeddingProgress: options.onEmbeddingProgress,
      }),
  });
  return {
    get role() {
      return shared.role;
    },
    call: (method, params) => shared.call(method, params),
    close: () => shared.close(),
  };
}
