import { Command, InvalidArgumentError, Option } from 'commander';
import { EMBEDDING_SETTING_HELP } from '../embedding/embeddingSetting';
import { PROFILES } from './profiles';
import type { BridgeLaunch } from './runBridge';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError(`"${value}" is not a port (0-65535).`);
  return port;
}

/** A positive number of seconds, fractions allowed (tests use tenths). */
export function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400 * 365)
    throw new InvalidArgumentError(`"${value}" is not a number of seconds (more than 0).`);
  return seconds;
}

/** The options of `dist/mcp.js`; `engram serve --mcp` takes the same ones. */
export function addBridgeOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--profile <profile>',
        'which tools to offer (env ENGRAM_MCP_PROFILE; default full)',
      ).choices(PROFILES),
    )
    .option(
      '--http',
      'serve Streamable HTTP on 127.0.0.1 instead of stdio (URL and token in .engram/mcp-http.json)',
    )
    .option('--port <port>', 'HTTP port (default: any free port)', parsePort)
    .option(
      '--session-idle <seconds>',
      'HTTP: close an MCP session after this long without a request (default 1800)',
      parseSeconds,
    )
    .option(
      '--request-timeout <seconds>',
      'HTTP: a request must arrive whole within this, its headers within 10 s of it (default 30)',
      parseSeconds,
    );
}

/** Parses `dist/mcp.js` arguments. Usage errors go to stderr: stdout belongs to MCP frames. */
export function parseBridgeArguments(argv: string[]): BridgeLaunch {
  const program = addBridgeOptions(
    new Command('engram-mcp')
      .description('Engram MCP bridge: project memory for MCP clients (stdio by default)')
      .option('--db <file>', 'database file (env ENGRAM_DB)')
      .option(
        '--workspace <dir>',
        'workspace whose database to use (default: the client roots, else the current folder)',
      )
      .option('--user', 'use the user-level database')
      .option('--embedding <model>', `embedding model: ${EMBEDDING_SETTING_HELP} (env ENGRAM_EMBEDDING)`),
  )
    .configureOutput({
      writeOut: (text) => process.stderr.write(text),
      writeErr: (text) => process.stderr.write(text),
    })
    .exitOverride();
  program.parse(argv, { from: 'user' });
  return program.opts<BridgeLaunch>();
}
