import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { requireWithCodeCache } from './codeCache';
import { baselineWasmOnly } from './oneShotWasm';
// Everything from the shared engine bundle (dist/engineCore.js, see engineCore.ts), required
// through a V8 code cache (codeCache.ts): each command is a new process that compiles it.
import type * as EngineCore from './engineCore';
import type { UseLiteAssets } from './engineCore';

// Before anything compiles: the flag is part of what V8 checks a code cache against, so the
// two kinds of command keep a cache each (the variant in its key).
const baseline = baselineWasmOnly(process.argv.slice(2));
if (baseline) v8.setFlagsFromString('--liftoff-only');
const core = requireWithCodeCache(path.join(__dirname, './engineCore.js'), baseline ? 'liftoff-only' : '');
const { buildCli, resolveDefaultModelAssets, useLiteAssetsInDirectory, workerScriptsIn } =
  core.exports as typeof EngineCore;

/**
 * `engram` command-line entry. The only place (with the MCP entry) that reads the process
 * environment and knows where the bundled wasm assets are; the engine gets them as parameters.
 */
/** The build copies sql.js's wasm beside the bundle (dist/). */
function sqlWasmPath(): string {
  return path.join(__dirname, 'sql-wasm.wasm');
}

/** The build copies the default model beside the bundle; from source it is in node_modules. */
function useLiteAssets(): UseLiteAssets {
  const bundled = path.join(__dirname, 'use-lite');
  return existsSync(bundled) ? useLiteAssetsInDirectory(bundled) : resolveDefaultModelAssets(require.resolve);
}

const cli = buildCli({
  cwd: process.cwd(),
  env: process.env,
  home: os.homedir(),
  platform: process.platform,
  sqlWasmPath: sqlWasmPath(),
  // The build puts the worker bundles beside this one (dist/).
  workers: workerScriptsIn(__dirname),
  useLiteAssets,
  grammarsDirectory: path.join(__dirname, 'grammars'),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});

void cli.run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  core.save();
});
