/**
 * Where the engine's worker threads start from. The host locates them, as it locates
 * sql.js's wasm and the grammars, and passes them to `Engram.open({ workers })`: the extension,
 * the CLI and the MCP bridge each know their dist/ directory; tests run the TypeScript sources.
 * This file is the one place that knows the workers' file names, so a host never spells them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { invalidInput } from '../errors';
import type { WorkerScript } from './workerKit';

/** One script per worker the engine runs. */
export interface WorkerScripts {
  /** Parses source files for the code index (engine/code/scanWorker.ts). */
  scan: WorkerScript;
  /** Runs the local embedding model (engine/embedding/embeddingWorker.ts). */
  embedding: WorkerScript;
  /** Builds HNSW graphs (engine/vectors/vectorWorker.ts). */
  vectors: WorkerScript;
  /** Writes snapshots off the host's thread (engine/store/checkpointWorker.ts). */
  checkpoint: WorkerScript;
  /** Plans consolidation on a copy of the database (engine/lifecycle/consolidationPlanWorker.ts). */
  consolidation: WorkerScript;
  /** Owns the replica of the team scope for a long-lived host (engine/teamClient/replicaWorker.ts). */
  replica: WorkerScript;
}

export type WorkerRole = keyof WorkerScripts;

/** Each worker's source, relative to engine/; its bundle is dist/<basename>.js (scripts/build.mjs). */
const WORKER_SOURCES: Readonly<Record<WorkerRole, string>> = {
  scan: 'code/scanWorker',
  embedding: 'embedding/embeddingWorker',
  vectors: 'vectors/vectorWorker',
  checkpoint: 'store/checkpointWorker',
  consolidation: 'lifecycle/consolidationPlanWorker',
  replica: 'teamClient/replicaWorker',
};

function mapRoles(script: (source: string) => WorkerScript): WorkerScripts {
  return {
    scan: script(WORKER_SOURCES.scan),
    embedding: script(WORKER_SOURCES.embedding),
    vectors: script(WORKER_SOURCES.vectors),
    checkpoint: script(WORKER_SOURCES.checkpoint),
    consolidation: script(WORKER_SOURCES.consolidation),
    replica: script(WORKER_SOURCES.replica),
  };
}

/** The built workers in `directory` (the extension's, CLI's or bridge's dist/). */
export function workerScriptsIn(directory: string): WorkerScripts {
  return mapRoles((source) => ({ file: path.join(directory, `${path.basename(source)}.js`), execArgv: [] }));
}

/**
 * The TypeScript sources, run through tsx (tests, benchmarks). On Node 20 a worker's `--import tsx`
 * registers its hooks too late for the worker's own entry file ("Unknown file extension .ts"), so
 * the source runs with tsx's CommonJS hook, `--require tsx/cjs`, which is in place before it loads.
 */
export function sourceWorkerScripts(): WorkerScripts {
  const engine = path.resolve(__dirname, '..');
  return mapRoles((source) => ({
    file: path.join(engine, `${source}.ts`),
    execArgv: ['--require', 'tsx/cjs'],
  }));
}

/**
 * What a host that passes no `workers` gets: the built workers beside the running bundle (this
 * code is bundled into dist/), or the sources when the engine itself runs under tsx.
 */
export function defaultWorkerScripts(): WorkerScripts {
  return __filename.endsWith('.ts') ? sourceWorkerScripts() : workerScriptsIn(__dirname);
}

/**
 * Throws INVALID_INPUT naming the first script that is not there. Checked when the engine opens:
 * a missing worker would otherwise surface minutes later, as a failed scan or snapshot.
 */
export function checkWorkerScripts(scripts: WorkerScripts): void {
  for (const role of Object.keys(WORKER_SOURCES) as WorkerRole[]) {
    const file = scripts[role].file;
    if (!existsSync(file)) throw invalidInput(`the ${role} worker script is missing: ${file}`);
  }
}
