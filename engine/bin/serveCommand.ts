import type { Command } from 'commander';
import { addBridgeOptions } from '../mcp/commandLine';
import { runBridge } from '../mcp/lazyBridge';
import type { BridgeEnvironment } from '../mcp/runBridge';
import { invalidInput } from '../errors';
import { parseNumber } from './cliArguments';

interface ServeOptions {
  mcp?: boolean;
  team?: boolean;
  profile?: string;
  http?: boolean;
  port?: number;
  sessionIdle?: number;
  requestTimeout?: number;
  tokens?: string;
  bind?: string;
  rate?: number;
  burst?: number;
  store?: string;
}

/**
 * `engram serve --mcp` (the local bridge: stdio, or Streamable HTTP on 127.0.0.1 with --http) and
 * `engram serve --team` (the team server: the engine protocol and MCP over HTTP with per-user
 * tokens, docs/team-server.md). Both load their server code only when started.
 */
export function registerServeCommand(
  program: Command,
  globals: () => { db?: string; workspace?: string; user?: boolean; embedding?: string },
  io: BridgeEnvironment,
): void {
  addBridgeOptions(
    program
      .command('serve')
      .description('serve the memory: to MCP clients (--mcp: stdio, or --http), or to a team (--team)')
      .option('--mcp', 'serve MCP to one machine (stdio, or Streamable HTTP with --http)')
      .option('--team', 'serve the team server: /rpc, /mcp, /metrics, /healthz over HTTP, per-user tokens')
      .option('--tokens <file>', '--team: the tokens file (default: team-tokens.json beside the database)')
      .option(
        '--store <url>',
        '--team: keep the store in PostgreSQL (postgres://user:password@host:port/database); several servers may share it',
      )
      .option('--bind <address>', '--team: the address to listen on (default 127.0.0.1: put TLS in front)')
      .option('--rate <n>', '--team: requests per second per token (default 20)', parseNumber)
      .option(
        '--burst <n>',
        '--team: requests a token may make at once (default twice the rate)',
        parseNumber,
      ),
  ).action(async (o: ServeOptions) => {
    if (o.mcp === o.team) throw invalidInput('engram serve takes one of --mcp or --team');
    if (o.store !== undefined && !o.team) throw invalidInput('--store goes with --team');
    if (o.mcp) return runBridge({ ...globals(), ...o }, io);
    const { runTeamServer } = await import('../teamServer/runTeamServer');
    return runTeamServer({ ...globals(), ...o }, io);
  });
}
