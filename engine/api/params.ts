import { invalidInput } from '../errors';
import type { Actor } from '../memory/types';

/** Params arrive as JSON from other processes: each method's schema checks them (parseParams.ts). */
export type Params = Record<string, unknown>;

export function asParams(value: unknown, method: string): Params {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidInput(`${method} needs an object of parameters`);
  return value as Params;
}

/** Who is acting, from a parsed `actor` ({agent, session}, either maybe null). */
export function actorOf(params: {
  actor?: { agent?: string | null | undefined; session?: string | null | undefined } | undefined;
}): Actor {
  const actor: Actor = {};
  if (params.actor?.agent != null) actor.agent = params.actor.agent;
  if (params.actor?.session != null) actor.session = params.actor.session;
  return actor;
}
