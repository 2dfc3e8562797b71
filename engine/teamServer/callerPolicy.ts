import type { MethodName } from '../api/methods';
import { EngramError } from '../errors';
import { grants, METHOD_SCOPES } from './methodScopes';
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
 * The parameters as the engine gets them: the acting user is the token's, whatever the caller
 * wrote (an agent name cannot be forged), and the session is the caller's own, namespaced by user.
 */
export function asCaller(token: TeamToken, params: unknown): Record<string, unknown> {
  const given = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  const actor = given['actor'] as { session?: unknown } | undefined;
  const session = typeof actor?.session === 'string' ? `${token.user}/${actor.session}` : undefined;
  return { ...given, actor: { agent: token.user, ...(session ? { session } : {}) } };
}
