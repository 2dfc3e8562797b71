import { invalidInput } from '../errors';
import { describe } from '../memory/validate';
import type { Actor } from '../memory/types';
import { boundedQuery } from '../retrieval/queryLimit';

/** Params arrive as JSON from other processes: every method checks its own. */
export type Params = Record<string, unknown>;

export function asParams(value: unknown, method: string): Params {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidInput(`${method} needs an object of parameters`);
  return value as Params;
}

export function text(params: Params, field: string): string {
  const value = params[field];
  if (typeof value !== 'string' || value.trim() === '')
    throw invalidInput(`${field} is required (text); got ${describe(value)}`);
  return value;
}

/** Required query text, at most MAX_QUERY_CHARS characters (TOO_LARGE beyond). */
export function queryText(params: Params, field: string): string {
  return boundedQuery(field, text(params, field));
}

/** Optional query text, at most MAX_QUERY_CHARS characters (TOO_LARGE beyond). */
export function optionalQueryText(params: Params, field: string): string | undefined {
  const value = optionalString(params, field);
  return value === undefined ? undefined : boundedQuery(field, value);
}

export function optionalString(params: Params, field: string): string | undefined {
  const value = params[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidInput(`${field} must be text; got ${describe(value)}`);
  return value;
}

export function optionalNumber(params: Params, field: string): number | undefined {
  const value = params[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw invalidInput(`${field} must be a number; got ${describe(value)}`);
  return value;
}

export function optionalBoolean(params: Params, field: string): boolean | undefined {
  const value = params[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw invalidInput(`${field} must be true or false; got ${describe(value)}`);
  return value;
}

export function stringList(params: Params, field: string): string[] {
  const value = params[field];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw invalidInput(`${field} must be a list of text; got ${describe(value)}`);
  }
  return value as string[];
}

/** Who is acting, from `params.actor` ({agent, session}). */
export function actorOf(params: Params): Actor {
  const actor = params['actor'];
  if (actor === undefined || actor === null) return {};
  if (typeof actor !== 'object' || Array.isArray(actor))
    throw invalidInput('actor must be an object {agent, session}');
  const fields = actor as Params;
  const result: Actor = {};
  const agent = optionalString(fields, 'agent');
  const session = optionalString(fields, 'session');
  if (agent !== undefined) result.agent = agent;
  if (session !== undefined) result.session = session;
  return result;
}
