import type { Command } from 'commander';
import { invalidInput } from '../errors';
import { parseTeamUrl } from '../teamClient/teamConnection';
import type { TeamTarget } from '../teamClient/teamConnection';
import { WriteQueue } from '../teamClient/writeQueue';
import type { FlushReport } from '../teamClient/writeQueue';
import {
  addToken,
  DEFAULT_TEAM,
  parseScopes,
  readTokens,
  revokeToken,
  teamOf,
} from '../teamServer/teamTokens';

/** The team server a CLI call goes to: `--team-url` or ENGRAM_TEAM_URL, with ENGRAM_TEAM_TOKEN. */
export function teamTarget(teamUrl: string | undefined, env: NodeJS.ProcessEnv): TeamTarget | undefined {
  const source = teamUrl !== undefined ? '--team-url' : 'ENGRAM_TEAM_URL';
  const value = teamUrl ?? env['ENGRAM_TEAM_URL'];
  if (value === undefined || value === '') return undefined;
  const url = parseTeamUrl(value, source);
  // Never on the command line: other users see a process's arguments.
  const token = env['ENGRAM_TEAM_TOKEN'];
  if (!token)
    throw invalidInput(`${source} is set but ENGRAM_TEAM_TOKEN is not: the team server needs a token`);
  return { url, token };
}

export interface TeamServerCommandDeps {
  /** The tokens file: --tokens, else team-tokens.json beside the database. */
  tokensFile(given: string | undefined): string;
  target(): TeamTarget | undefined;
  queueDirectory(): string;
  json(): boolean;
  stdout(text: string): void;
  now(): number;
}

/**
 * `engram team token add|list|revoke` (the team server's tokens file; only hashes are stored) and
 * `engram team flush` (send the writes queued while the team server was unreachable).
 */
export function registerTeamServerCommands(team: Command, deps: TeamServerCommandDeps): void {
  const print = (value: unknown, text: string) =>
    deps.stdout(`${deps.json() ? JSON.stringify(value, null, 2) : text}\n`);
  const token = team.command('token').description("manage the team server's tokens (engram serve --team)");
  token
    .command('add <user>')
    .option(
      '--scopes <list>',
      'memory:read, memory:write, admin (comma-separated)',
      'memory:read,memory:write',
    )
    .option(
      '--team <name>',
      'the team whose memories it reads and writes (others are not found)',
      DEFAULT_TEAM,
    )
    .option('--tokens <file>', 'the tokens file (default: team-tokens.json beside the database)')
    .description(
      'create a token acting as <user> (recorded on every write it makes); printed once, only its hash is kept',
    )
    .action((user: string, o: { scopes: string; team: string; tokens?: string }) => {
      const file = deps.tokensFile(o.tokens);
      const { token: secret, entry } = addToken(file, user, parseScopes(o.scopes), deps.now(), o.team);
      print(
        { ...entry, token: secret, file },
        `${secret}\n(token ${entry.id} for ${entry.user} of team ${o.team}: ${entry.scopes.join(', ')}; shown once, only its hash is kept in ${file})`,
      );
    });
  token
    .command('list')
    .option('--tokens <file>', 'the tokens file')
    .description('list the tokens (ids, users, teams, scopes; never the secrets)')
    .action((o: { tokens?: string }) => {
      const tokens = readTokens(deps.tokensFile(o.tokens)).map(({ hash: _hash, ...rest }) => ({
        ...rest,
        team: teamOf(rest),
      }));
      const lines = tokens.map(
        (t) =>
          `${t.id}  ${t.user}  ${t.team}  ${t.scopes.join(',')}  ${t.revoked ? `revoked ${t.revoked}` : `created ${t.created}`}`,
      );
      print(tokens, lines.length > 0 ? lines.join('\n') : 'no tokens (engram team token add USER)');
    });
  token
    .command('revoke <id>')
    .option('--tokens <file>', 'the tokens file')
    .description('revoke a token: a running server refuses it from the next request')
    .action((id: string, o: { tokens?: string }) => {
      const entry = revokeToken(deps.tokensFile(o.tokens), id, deps.now());
      print({ id: entry.id, revoked: entry.revoked }, `revoked ${entry.id} (${entry.user})`);
    });
  team
    .command('flush')
    .description('send the writes queued while the team server was unreachable (each is applied once)')
    .action(async () => {
      const target = deps.target();
      if (!target) throw invalidInput('no team server: set --team-url or ENGRAM_TEAM_URL');
      const report = await new WriteQueue(deps.queueDirectory()).flush(target);
      print(flushSummary(report), flushLine(report));
    });
}

function flushSummary(report: FlushReport) {
  return {
    sent: report.sent.map((s) => s.write.id),
    rejected: report.rejected.map((r) => ({ id: r.write.id, message: r.message })),
    waiting: report.waiting,
    ...(report.stoppedBy ? { stoppedBy: report.stoppedBy.reason } : {}),
  };
}

function flushLine(report: FlushReport): string {
  const lines = [`sent ${report.sent.length}, rejected ${report.rejected.length}, waiting ${report.waiting}`];
  for (const r of report.rejected) lines.push(`  rejected ${r.write.method} ${r.write.id}: ${r.message}`);
  if (report.stoppedBy) lines.push(`  stopped: ${report.stoppedBy.reason}`);
  return lines.join('\n');
}
