#!/usr/bin/env node
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requireBundle } from './bundleRequire';
import type * as EngineCore from './engineCore';

// Everything from the shared engine bundle (dist/engineCore.js), CommanderError included: a
// second copy of commander would fail the instanceof below. Loaded in pieces (bundleRequire.ts).
const {
  CommanderError,
  parseBridgeArguments,
  resolveDefaultModelAssets,
  runBridge,
  useLiteAssetsInDirectory,
  workerScriptsIn,
} = requireBundle(__dirname, './engineCore.js') as typeof EngineCore;

/**
 * `dist/mcp.js` (engram-mcp): the MCP bridge over stdio, or Streamable HTTP with --http. stdout
 * carries MCP frames only, so anything a dependency prints with console.log goes to stderr.
 */
/* eslint-disable no-console -- the one place console is rerouted, so no dependency can write to stdout */
console.log =
  console.info =
  console.debug =
    (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`);
/* eslint-enable no-console */

function useLiteAssets() {
  const bundled = path.join(__dirname, 'use-lite');
  return existsSync(bundled) ? useLiteAssetsInDirectory(bundled) : resolveDefaultModelAssets(require.resolve);
}

async function main(): Promise<number> {
  let launch;
  try {
    launch = parseBridgeArguments(process.argv.slice(2));
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
  await runBridge(launch, {
    cwd: process.cwd(),
    env: process.env,
    home: os.homedir(),
    platform: process.platform,
    sqlWasmPath: path.join(__dirname, 'sql-wasm.wasm'),
    workers: workerScriptsIn(__dirname),
    grammarsDirectory: path.join(__dirname, 'grammars'),
    useLiteAssets,
  });
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `engram-mcp: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`,
    );
    process.exit(1);
  },
);
