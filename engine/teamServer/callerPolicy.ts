import type { MethodName } from '../api/methods';
import { EngramError } from '../errors';
import { grants, METHOD_SCOPES } from './methodScopes';
import { isTeamName, teamOf } from './teamTokens';
import type { TeamToken } from './teamTokens';

/** Why `token` may not call `method` (FORBIDDEN, one line), or undefined when it may. */
export function forbidden(token: TeamToken, method: MethodName): EngramError | undefined {
  const needed = METHOD_SCOPES[method];
  if (needed === undefined) return new EngramError('FORBIDDEN', `${method} is not served by the team server`);
  if (grants(token.scopes, needed)) return undefined;
  return new EngramError(
    'FORBIDDEN',
    `${method} needs the ${needed} scope; the token ${token.id} of ${token.user} has ${token.scopes.join(', ')}`,
  );
}

/**
 * Why `token` reaches no store (FORBIDDEN), or undefined: a tokens file edited by hand can name
 * any team, and a team name becomes a directory and a schema name (teamStores.ts).
 */
export function unknownTeam(token: TeamToken): EngramError | undefined {
  const team = teamOf(token);
  if (isTeamName(team)) return undefined;
  return new EngramError(
    'FORBIDDEN',
    `token ${token.id} names team "${team.slice(0, 60)}", which is not a team name: add a new token with --team`,
  );
}

/**
 * The parameters as the engine gets them: the acting user is the token's, whatever the caller
 * wrote (an agent name cannot be forged), and the session is the caller's own, namespaced by user.
 */
export function asCaller(token: TeamToken, params: unknown): Record<string, unknown> {
  const given = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  const actor = given['actor'] as { session?: unknown } | undefined;
  const session = typeof actor?.session === 'string' ? `${token.user}/${actor.session}` : undefined;
  return { ...given, actor: { agent: token.user, ...(session ? { session } : {}) } };
}
