import { bridgeRuntime } from '../mcp/runBridge';
import type { BridgeEnvironment, BridgeLaunch } from '../mcp/runBridge';
import { resolveDatabasePath } from '../paths';
import { startTeamServer } from './teamServer';
import { TeamStores } from './teamStores';
import { DEFAULT_TEAM, defaultTokensFile, TokenTable } from './teamTokens';

/** `engram serve --team [--port P] [--bind ADDR] [--tokens FILE] [--rate N] [--burst N]`. */
export interface TeamLaunch extends BridgeLaunch {
  tokens?: string;
  bind?: string;
  rate?: number;
  burst?: number;
}

/**
 * Opens the database (this process becomes its host, or a client of the process that hosts it),
 * serves it until SIGTERM or SIGINT, then closes the server and the engine. The address is
 * printed on stderr: `engram team server at http://127.0.0.1:PORT (tokens: FILE)`.
 */
export async function runTeamServer(launch: TeamLaunch, io: BridgeEnvironment): Promise<void> {
  // The core tools by default: the others read or scan the server's own workspace, which a team
  // server does not serve (engine/teamServer/methodScopes.ts).
  const runtime = bridgeRuntime({ profile: 'core', ...launch, team: true }, io);
  const tokensFile = launch.tokens ?? defaultTokensFile(resolveDatabasePath(runtime.settings.choice));
  // Before the engine opens: a tokens file that cannot be read stops the server with one line.
  new TokenTable(tokensFile);
  const stores = new TeamStores(runtime);
  try {
    // The default team's store opens now (a bad --store stops the server); the others on demand.
    await stores.engine(DEFAULT_TEAM);
    const server = await startTeamServer(
      stores,
      {
        port: launch.port ?? 0,
        tokensFile,
        ...(launch.bind === undefined ? {} : { bind: launch.bind }),
        ...(launch.rate === undefined ? {} : { ratePerSecond: launch.rate }),
        ...(launch.burst === undefined ? {} : { burst: launch.burst }),
        ...(launch.sessionIdle === undefined ? {} : { sessionIdleMs: launch.sessionIdle * 1000 }),
        ...(launch.requestTimeout === undefined ? {} : { requestTimeoutMs: launch.requestTimeout * 1000 }),
      },
      runtime.settings.logger,
    );
    process.stderr.write(`engram team server at ${server.url} (tokens: ${tokensFile})\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    await server.close();
  } finally {
    await stores.closeAll();
  }
}
