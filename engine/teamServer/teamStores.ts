import path from 'node:path';
import type { Engram } from '../engram';
import { BridgeRuntime } from '../mcp/processRuntime';
import type { BridgeSettings } from '../mcp/processRuntime';
import { resolveDatabasePath } from '../paths';
import { DEFAULT_TEAM, parseTeam } from './teamTokens';

/**
 * One store per team: the default team's is the server's own database (or `--store`), team T's
 * is `teams/T/<database name>` beside that database, or the schema `engram_team_T` of the same
 * PostgreSQL database. Separate stores rather than a team column on every row: no query (recall's
 * channels, the graph, the timeline, a by-id lookup) can forget a filter, so another team's
 * memory is simply not there (404, its id never confirmed), and every write lands in, and its
 * event is recorded by, the store of the token's team. Each is opened on its team's first request.
 */
export class TeamStores {
  private readonly runtimes = new Map<string, BridgeRuntime>();

  constructor(private readonly base: BridgeRuntime) {
    this.runtimes.set(DEFAULT_TEAM, base);
  }

  /** The runtime of `team` (its MCP tools and engine); throws INVALID_INPUT for a bad name. */
  runtime(team: string): BridgeRuntime {
    let runtime = this.runtimes.get(team);
    if (!runtime) {
      runtime = new BridgeRuntime(teamSettings(this.base.settings, parseTeam(team)));
      this.runtimes.set(team, runtime);
    }
    return runtime;
  }

  engine(team: string): Promise<Engram> {
    return this.runtime(team).engine(() => Promise.resolve([]));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.runtimes.values()].map((runtime) => runtime.close()));
  }
}

function teamSettings(settings: BridgeSettings, team: string): BridgeSettings {
  const db = resolveDatabasePath(settings.choice);
  return {
    ...settings,
    choice: { ...settings.choice, db: path.join(path.dirname(db), 'teams', team, path.basename(db)) },
    engine:
      settings.engine.store === undefined
        ? settings.engine
        : { ...settings.engine, storeSchema: `engram_team_${team}` },
  };
}
