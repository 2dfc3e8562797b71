import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import {
  parseEmbeddingSetting,
  useLiteAssetsInDirectory,
  userDataDirectory,
  workerScriptsIn,
} from '../engine/index';
import type {
  OpenEngramOptions,
  Logger,
  ScanProgress,
  EmbeddingProgress,
  EngineActivity,
  ReplicaThreadOptions,
} from '../engine/index';
import type { EngramSettings } from './settings';
import { databasePath } from './databasePath';
import { embeddingSettingText } from './settings';

export interface EngineHooks {
  logger: Logger;
  onScanProgress(progress: ScanProgress): void;
  onEmbeddingProgress(progress: EmbeddingProgress): void;
  /** Recalls and writes on the workspace database by any process, this window's marked `own` (live views). */
  onActivity(activity: EngineActivity): void;
}

/**
 * Everything `Engram.open` needs, located beside the bundle (dist/): the packaged extension ships
 * no node_modules. The workspace is handed to the engine for scanning only when it is trusted:
 * scanning reads every file, which an untrusted workspace has not agreed to.
 */
export function engineOptions(
  extensionPath: string,
  settings: EngramSettings,
  root: string | undefined,
  hooks: EngineHooks,
): OpenEngramOptions {
  const dist = path.join(extensionPath, 'dist');
  const scanAllowed = root !== undefined && vscode.workspace.isTrusted;
  return {
    dbPath: databasePath(settings, root),
    sqlWasmPath: path.join(dist, 'sql-wasm.wasm'),
    workers: workerScriptsIn(dist),
    clientName: 'vscode',
    logger: hooks.logger,
    embedding: parseEmbeddingSetting(embeddingSettingText(settings), {
      useLiteAssets: () => useLiteAssetsInDirectory(path.join(dist, 'use-lite')),
      modelDir: path.join(userDataDirectory(process.env, os.homedir(), process.platform), 'models'),
      env: process.env,
    }),
    // VS Code is long-lived: load the model now (in its worker) so the first recall is fast.
    warmEmbedding: true,
    // ... and keeps the memory small: promotions and archives of what faded, every 15 minutes.
    lifecycleEveryMs: LIFECYCLE_EVERY_MS,
    // The database export of a snapshot would block the editor (a second at 100k memories).
    checkpointInWorker: true,
    onEmbeddingProgress: (p) => hooks.onEmbeddingProgress(p),
    onActivity: (a) => hooks.onActivity(a),
    ...(scanAllowed
      ? {
          code: {
            root,
            grammarsDirectory: path.join(dist, 'grammars'),
            excludes: settings.scanExclude,
            maxFileBytes: settings.scanMaxFileBytes,
            onProgress: (p: ScanProgress) => hooks.onScanProgress(p),
          },
        }
      : {}),
  };
}

/**
 * The replica of the team scope (engine/teamClient/teamReplica.ts) in a worker thread that owns
 * its store (ReplicaThread): its syncs and reads run sql.js there, never on the extension host's
 * thread. The store has no workers, model, scans or lifecycle of its own.
 */
export function replicaThreadOptions(
  extensionPath: string,
  directory: string,
  logger: Logger,
): ReplicaThreadOptions {
  const dist = path.join(extensionPath, 'dist');
  return {
    directory,
    sqlWasmPath: path.join(dist, 'sql-wasm.wasm'),
    clientName: 'vscode-team-replica',
    script: workerScriptsIn(dist).replica,
    logger,
  };
}

/** How often a long-lived host runs the lifecycle (engine/lifecycle). */
export const LIFECYCLE_EVERY_MS = 15 * 60 * 1000;
